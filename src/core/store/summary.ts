import type { OdEvent } from "../contract/events.ts";

/** A run as lists show it: what it was asked, how it went. The same from memory (a live server run) and from its log. */
export interface RunSummary {
  runId: string;
  agent?: string;
  prompt?: string;
  cwd?: string;
  /**
   * `queued` until its agent starts (waiting for a slot); `interrupted` when its record ended without a
   * run.finished and no od drives it any more (its od was killed).
   */
  status: "queued" | "running" | "succeeded" | "failed" | "cancelled" | "interrupted";
  startedAt: number;
  sessionId?: string;
  /** From the run's events, once they say: the model and mode it ran with, how long it took, what it used. */
  model?: string;
  mode?: string;
  durationMs?: number;
  resumable?: boolean;
  usage?: { inputTokens?: number; outputTokens?: number; costUsd?: number };
  /** Where it was started (`cli` for `od run`; absent for the server's own runs), and the compare run it belongs to. */
  origin?: string;
  groupId?: string;
  /** The target it ran on (`ssh://…`, `docker://…`); absent on this machine. */
  on?: string;
  /** The session it continued (its request's `resume`): a turn of a conversation. */
  resume?: string;
}

/** What the logged request says about a run (the fields a summary shows; the rest stays in request.json). */
export function requestSummary(runId: string, request: Record<string, unknown>): RunSummary {
  const text = (key: string) => (typeof request[key] === "string" ? (request[key] as string) : undefined);
  const summary: RunSummary = { runId, agent: text("agent"), prompt: text("prompt"), cwd: text("cwd"), status: "running", startedAt: 0 };
  for (const key of ["origin", "groupId", "on", "resume"] as const) if (text(key)) summary[key] = text(key);
  return summary;
}

/**
 * Keeps a summary as a run's events pass: O(1) per event, so a live run's costs
 * nothing to ask for, however long its log. It says what the log would: started
 * at the first event, the session the run reported, the status its run.finished gave.
 */
export function noteEvent(summary: RunSummary, event: OdEvent, first: boolean): void {
  if (first) summary.startedAt = event.ts;
  switch (event.type) {
    case "run.started":
      summary.status = "running";
      summary.mode = event.mode;
      if (event.model) summary.model = event.model;
      if (event.on) summary.on = event.on;
      return;
    case "status":
      if (event.label === "queued" && summary.status === "running") summary.status = "queued";
      return;
    case "session":
      summary.sessionId = event.sessionId;
      if (event.model) summary.model ??= event.model;
      return;
    case "run.result":
      if (event.usage) {
        const { inputTokens, outputTokens, costUsd } = event.usage;
        summary.usage = JSON.parse(JSON.stringify({ inputTokens, outputTokens, costUsd }));
      }
      return;
    case "run.finished":
      summary.status = event.status;
      summary.sessionId = event.sessionId;
      summary.durationMs = event.durationMs;
      summary.resumable = event.resumable;
      return;
    default:
      return;
  }
}

/** Whether a process (the od that runs a CLI run) is alive: signal 0 reaches it, or exists but is not ours. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException)?.code === "EPERM";
  }
}
