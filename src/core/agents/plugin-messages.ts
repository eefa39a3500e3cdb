/** What od's thread and a plugin's thread (plugin-worker.ts) say to each other. */

/** Stored in the flag when the plugin's thread is going away: wakes any wait, whatever it waits for. */
export const GONE = 0x7fffffff;

/** To the plugin's thread. */
export type Request =
  | { kind: "vet"; path: string }
  | { kind: "open"; seq: number; path: string; id: string; port: MessagePort; flag: SharedArrayBuffer }
  | { kind: "line"; seq: number; line: string }
  | { kind: "finish"; seq: number };

/** A vetting's outcome, posted to the worker's owner. */
export type Verdict = { ok: true } | { error: string } | { exited: number };

/** An answer on a parse session's port: events, a throw of the plugin's, or why the session is over. */
export type AnswerBody = { events: unknown } | { threw: string } | { failed: string };
export type Answer = { seq: number } & AnswerBody;
