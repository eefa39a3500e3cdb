import type { Transport } from "../loops/transport.ts";
import { AgentProcess, type Exit } from "../os/process.ts";
import { DEFAULT_LADDER, type Ladder } from "../os/process-group.ts";
import { type EngineOptions, engineArgv } from "./engines.ts";
import { PGID_MARK, remoteKillScript, remoteScript } from "./script.ts";
import type { Target } from "./target.ts";

export interface RemoteSpec {
  target: Target;
  /** The executable on the target, then its arguments. */
  argv: string[];
  /** The working directory on the target. */
  cwd: string;
  /** What the agent gets on the target: the adapter's own variables and od's run markers, nothing of this machine. */
  remoteEnv: Record<string, string>;
  /** What the engine's client gets here (the user's environment: ssh-agent socket, kubeconfig, docker host). */
  localEnv: Record<string, string | undefined>;
  stdin?: string | "pipe";
  engine: EngineOptions;
}

/**
 * An agent on another machine or in a container, behind the same Transport as a local one: its
 * stdout lines, stdin, stderr tail and exit come through the engine's client, which od runs in a
 * process group of its own here. The remote side runs in its own group too; its id comes back on
 * stderr, and a cancel ends that group through the engine before ending the local client. A dropped
 * connection, or od's own end, closes the remote stdin, which ends the remote group too.
 */
export class RemoteProcess implements Transport {
  private readonly local: AgentProcess;
  private pgid: number | undefined;
  private stderrHead = "";

  constructor(private readonly spec: RemoteSpec) {
    // The connection's stdin stays open for the whole run (its end is how the target learns od is gone);
    // a prompt goes first, and the wrapper hands the agent exactly its bytes.
    // "pipe" (as for a local process): a protocol agent, whose stdin stays open for its driver's messages.
    const prompt = spec.stdin === "pipe" ? undefined : spec.stdin;
    const promptBytes = prompt === undefined ? undefined : Buffer.byteLength(prompt);
    const script = remoteScript({ argv: spec.argv, cwd: spec.cwd, env: spec.remoteEnv, promptBytes });
    this.local = new AgentProcess({
      cmd: engineArgv(spec.target, script, spec.engine),
      cwd: process.cwd(),
      env: spec.localEnv,
      stdin: "pipe",
      onStderr: (chunk) => this.notePgid(chunk),
    });
    if (prompt) this.local.write(prompt);
  }

  get exited(): Promise<Exit> {
    return this.local.exited;
  }

  lines() {
    return this.local.lines();
  }

  frames() {
    return this.local.frames();
  }

  send(message: unknown): void {
    this.local.send(message);
  }

  closeStdin(): void {
    this.local.closeStdin();
  }

  async stderrTail(): Promise<string> {
    const tail = await this.local.stderrTail();
    return tail.replace(new RegExp(`^${PGID_MARK} \\d+\\n?`, "m"), "");
  }

  /** The remote group first (through the engine, bounded), then the local client. */
  async cancel(ladder: Ladder = DEFAULT_LADDER): Promise<void> {
    if (this.pgid !== undefined) await this.killRemote(this.pgid);
    await this.local.cancel(ladder);
  }

  /** The wrapper's first stderr line names the remote process group. */
  private notePgid(chunk: Uint8Array): void {
    if (this.pgid !== undefined || this.stderrHead.length > 256) return;
    this.stderrHead += new TextDecoder().decode(chunk);
    const m = new RegExp(`${PGID_MARK} (\\d+)`).exec(this.stderrHead);
    if (m) this.pgid = Number(m[1]);
  }

  private async killRemote(pgid: number): Promise<void> {
    try {
      const proc = Bun.spawn(engineArgv(this.spec.target, remoteKillScript(pgid), this.spec.engine), {
        env: this.spec.localEnv,
        stdin: "ignore",
        stdout: "ignore",
        stderr: "ignore",
        timeout: 5000,
        killSignal: "SIGKILL",
      });
      await proc.exited;
    } catch {
      // The engine is gone too: the local client's end (and, over ssh, the watchdog) is what is left.
    }
  }
}
