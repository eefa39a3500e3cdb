// @ts-check
// A run that has ended, read once from its event stream (GET /api/runs/:id/events, which closes at its
// end) with fetch: no reconnecting, as EventSource would do at the end of a run that never finished.
// A live run is watched instead (stream.js).
import { ApiError } from "./api.js";

/** @typedef {import("../../core/contract/events.ts").OdEvent} OdEvent */
/** @typedef {import("../../core/contract/events.ts").EventOf<"run.finished">} RunFinished */

/**
 * Calls `onEvent` with each of the run's events in order; resolves with its run.finished (undefined
 * when its log ended without one: its od was killed), or rejects when the stream cannot be read.
 * @param {string} runId
 * @param {(event: OdEvent) => void} onEvent
 * @param {AbortSignal} [signal]
 * @returns {Promise<RunFinished | undefined>}
 */
export async function replayRun(runId, onEvent, signal) {
  let res;
  try {
    res = await fetch(`/api/runs/${encodeURIComponent(runId)}/events`, { signal, headers: { accept: "text/event-stream" } });
  } catch {
    throw new ApiError("Cannot reach the od server", { hint: "is `od serve` still running?" });
  }
  if (!res.ok || !res.body) throw new ApiError(`Could not read run ${runId}`, { status: res.status, code: "HTTP" });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  /** @type {RunFinished | undefined} */
  let finished;
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = frame
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .map((line) => line.slice(6))
        .join("\n");
      if (!data) continue; // a heartbeat
      /** @type {OdEvent} the server's own, as its log holds it */
      const event = JSON.parse(data);
      onEvent(event);
      if (event.type === "run.finished") finished = event;
    }
  }
  return finished;
}
