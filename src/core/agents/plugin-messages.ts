/** What od's thread and a plugin's thread (plugin-worker.ts) say to each other. */

/** To the plugin's thread. */
export type Request =
  | { kind: "vet"; path: string }
  | { kind: "open"; seq: number; path: string; id: string; port: MessagePort }
  | { kind: "line"; seq: number; line: string }
  | { kind: "finish"; seq: number };

/** A vetting's outcome, posted to the worker's owner. */
export type Verdict = { ok: true } | { error: string } | { exited: number };

/** An answer on a parse session's port: events, a throw of the plugin's, or why the session is over (`failed`, whatever its seq). */
export type AnswerBody = { events: unknown } | { threw: string } | { failed: string };
export type Answer = { seq: number } & AnswerBody;
