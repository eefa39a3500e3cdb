import type { ErrorCode } from "../contract/errors.ts";
import { type BodyOf, createStamper, type OdEvent, type OdEventBody } from "../contract/events.ts";

/**
 * A run's envelope (`runId`, `seq`, `ts`) is put on in one place: here. The pipeline stamps what
 * its attempts yield; a run that could not end itself (its od died, its log failed) gets its closing
 * events here too, continuing its seq, so every run ends with exactly one `run.finished` and no
 * other module builds one.
 */

/** Stamps bodies of run `runId`, seq counting from `from` (0 for a new run; a recovered log goes on after its last line). */
export function stamper(runId: string, from = 0): (body: OdEventBody) => OdEvent {
  return createStamper(runId, from);
}

/** How a run that could not end itself ended, for its closing events. */
export interface Ending {
  code: ErrorCode;
  message: string;
  hint?: string;
  /** When the run started (its first event), for durationMs. */
  startedAt?: number;
  sessionId?: string;
  /** Whether its session can be taken back (it has one, and its agent resumes). */
  resumable: boolean;
}

/** The last words of such a run, after seq `last`: its error, then its one run.finished (failed). */
export function closingEvents(runId: string, last: number, ending: Ending): [OdEvent, OdEvent] {
  const stamp = stamper(runId, last + 1);
  const finished: BodyOf<"run.finished"> = {
    type: "run.finished",
    status: "failed",
    exitCode: null,
    signal: null,
    durationMs: Math.max(0, Date.now() - (ending.startedAt ?? Date.now())),
    sessionId: ending.sessionId,
    resumable: ending.resumable && ending.sessionId !== undefined,
  };
  return [stamp({ type: "error", code: ending.code, message: ending.message, hint: ending.hint, retryable: false }), stamp(finished)];
}
