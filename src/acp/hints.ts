/**
 * od's hints are written for a terminal (`--resume`, `--model`, `od models`); over ACP the user acts
 * through the client, so `od acp` says the same in the protocol's terms: a new session
 * (session/new), the session's mode (session/set_mode), its model option (session/set_config_option).
 * Each row: what od's core says, and what an ACP client's user can do instead. Rows apply in order.
 */
const REWRITES: Array<[RegExp, string]> = [
  // A session that cannot be loaded or continued (checks.ts, acp-session.ts, the api loop's conversation).
  [/Start a new run without --resume\.?/g, "Start a new session (session/new): this one cannot be continued."],
  [/Continue with --resume [\w.:-]+/g, "Send another prompt in this session to continue"],
  [/; `od agents --refresh` checks again\.?/g, "; the next prompt tries it again."],
  [/Run without --image\.?/g, "Send the prompt without image content."],
  [/Run without --effort\.?/g, "Leave the effort unset."],
  // Models: the session's "model" option lists and sets them.
  [/`od models --agent [^`]*` lists (the valid ones|them)/g, 'the session\'s "model" option lists $1 (session/set_config_option)'],
  [/; see `od models --agent [^`]*`/g, '; the session\'s "model" option lists them all'],
  [/`od models --agent [^`]*--refresh` reads the list again \(od keeps it up to 24 h\)/g, "od reads the agent's list again after 24 h"],
  [/Pass --model \(or set OD_API_MODEL\)/g, 'Set the session\'s "model" option (or OD_API_MODEL)'],
  [/Pass --model/g, 'Set the session\'s "model" option (session/set_config_option)'],
  // Modes: the session's mode, within what od acp was started with.
  [/choose another --mode/g, "choose another mode (session/set_mode)"],
  [/Use --mode edit, or drop --allowed-tools\.?/g, 'Use the "edit" mode (session/set_mode).'],
  [/Use --mode ([\w-]+)/g, 'Use the "$1" mode (session/set_mode, as far as od acp allows)'],
  // The folder is the session's cwd.
  [/Pass an existing directory with --cwd\.?/g, "Start the session (session/new) in an existing directory."],
  [/that --cwd exists/g, "that the session's cwd exists"],
  [/Pass --cwd\.?/g, "Start the session (session/new) in an existing directory."],
  // No run timeout is set over ACP; one that stops a prompt is the agent's idle clock or od's own limit.
  [/Raise --timeout, or simplify the task\.?/g, "Simplify the task, or split it into smaller prompts."],
  // What od acp itself was started with: said as od acp's own flags, the one place a user sets them.
  [/, or pass --agent\.?/g, ", or start od acp with --agent <id>."],
  [/Run without --sandbox require/g, "Start od acp without --sandbox require"],
  [/cannot hold --mode ([\w-]+)/g, 'cannot hold the "$1" mode'],
  // Where to look, and what to run again.
  [
    /The agent's last words are above; run with --json to see every event\./g,
    "The agent's last words are in this session; od's run log (OD_HOME/runs) has every event.",
  ],
  [/please report it with `od run --json` output/g, "please report it with the run's log (OD_HOME/runs)"],
  [/See `od run --help`\./g, "See od's documentation of run requests."],
  [/Run `od agents --refresh` when the machine is quieter\./g, "Try again when the machine is quieter."],
];

/** `text` (a hint or message of od's) in ACP's terms: each CLI phrase the table knows, rewritten. */
export function protocolHint(text: string): string;
export function protocolHint(text: string | undefined): string | undefined;
export function protocolHint(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  return REWRITES.reduce((t, [pattern, replacement]) => t.replace(pattern, replacement), text);
}
