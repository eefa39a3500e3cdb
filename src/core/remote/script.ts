/**
 * The POSIX shell side of a remote run. Every value reaches the remote shell single-quoted (the
 * only quoting with no special characters inside), so a prompt, flag or path arrives byte-identical
 * whatever it holds; the prompt itself never does — it travels on stdin.
 */

/** One argument for a POSIX shell: `'…'`, with each `'` written as `'\''`. NUL cannot be passed at all. */
export function shQuote(value: string): string {
  if (value.includes("\0")) throw new Error("a NUL byte cannot be passed to a remote command");
  return `'${value.replaceAll("'", "'\\''")}'`;
}

/** What the remote wrapper prints on stderr first: its agent's process group id, for a cancel to end it. */
export const PGID_MARK = "od-remote-pgid";

export interface RemoteCommand {
  /** The executable on the target, then its arguments. */
  argv: string[];
  cwd: string;
  /** Only the adapter's own variables and od's run markers: never this machine's environment. */
  env: Record<string, string>;
  /**
   * The prompt's length in bytes when the agent reads its prompt from stdin: the wrapper hands it
   * exactly that much (then end of file), and reads the rest of stdin only to learn when the
   * connection is gone. Undefined: the agent speaks a protocol on stdin for the whole run.
   */
  promptBytes?: number;
}

/**
 * What runs as the agent's process: it leads the agent's session and process group (through
 * `setsid`, where the target has it), says so on stderr, starts the lifeline watchdog (which
 * ignores the TERM it sends its own group), and becomes the agent. Its argv are the agent's.
 */
const LEADER = [
  `[ -n "$OD_MARK" ] && echo "${PGID_MARK} $$" >&2`,
  `if [ -n "$OD_LIFELINE" ]; then ( trap '' TERM; cat <&3 >/dev/null; kill -TERM -$$ 2>/dev/null || kill -TERM $$ 2>/dev/null;`,
  "  sleep 2; kill -KILL -$$ 2>/dev/null || kill -KILL $$ 2>/dev/null ) </dev/null >/dev/null 2>&1 & fi",
  "unset OD_MARK OD_LIFELINE",
  "exec 3<&-",
  'exec "$@"',
].join("\n");

/**
 * A `sh` script that runs the agent on the target and exits with its status. The agent leads a
 * process group of its own where the target has `setsid`, and reports its id on stderr, so a cancel
 * can end everything it started. od keeps the connection's stdin open for the whole run: once it
 * ends (od closed it, od died, the connection dropped) the agent ends too — a protocol agent by its
 * own end of input, a prompt-on-stdin agent by the watchdog, after it got exactly its prompt's
 * bytes and then end of file. Run it as `sh -c <script>`.
 */
export function remoteScript(cmd: RemoteCommand): string {
  const env = Object.entries(cmd.env).map(([k, v]) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) throw new Error(`not an environment variable name: ${k}`);
    return `${k}=${shQuote(v)}`;
  });
  const prompted = cmd.promptBytes !== undefined;
  if (prompted && (!Number.isInteger(cmd.promptBytes) || cmd.promptBytes! < 0)) throw new Error(`not a byte count: ${cmd.promptBytes}`);
  const agent = ["$lead", "sh", "-c", shQuote(LEADER), "sh", "env", ...env, ...cmd.argv.map(shQuote)].join(" ");
  const lines = [
    // No directory: the login directory. A missing one fails here, as a missing --cwd does locally.
    ...(cmd.cwd ? [`cd ${shQuote(cmd.cwd)} || exit 127`] : []),
    "exec 3<&0",
    "if command -v setsid >/dev/null 2>&1; then lead=setsid; OD_MARK=1; else lead=; OD_MARK=; fi",
    "export OD_MARK",
    ...(prompted
      ? [
          // The prompt's bytes, read before anything else reads stdin (the x keeps trailing newlines).
          `prompt=$(head -c ${cmd.promptBytes} <&3; printf x)`,
          `prompt="\${prompt%x}"`,
          `printf '%s' "$prompt" | OD_LIFELINE=1 ${agent}`,
        ]
      : [`${agent} 0<&3`]),
  ];
  return lines.join("\n");
}

/** A command that ends a remote agent's process group: TERM, then KILL after `graceS` seconds. */
export function remoteKillScript(pgid: number, graceS = 2): string {
  if (!Number.isInteger(pgid) || pgid <= 1) throw new Error(`not a process group id: ${pgid}`);
  return `kill -TERM -${pgid} 2>/dev/null; sleep ${graceS}; kill -KILL -${pgid} 2>/dev/null; exit 0`;
}
