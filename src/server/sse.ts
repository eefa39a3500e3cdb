import type { Context } from "hono";
import type { Runs } from "../core/runs/service.ts";
import type { LogCursor, LoggedEvent } from "../core/store/log-read.ts";
import { keepOpen } from "./connections.ts";

export const HEARTBEAT_MS = 15_000;

/** About how much of the log one write to a client carries. */
const BATCH_BYTES = 64 * 1024;

/** Events that wake a client at once, without waiting for the event loop to turn. */
const WAKE_AFTER = 32;

/** Where a client resumes: `Last-Event-ID` (what EventSource sends on reconnect), else `?after=`, else the start. */
export function resumeAfter(c: Context): number {
  const raw = c.req.header("last-event-id") ?? c.req.query("after");
  const n = raw === undefined ? Number.NaN : Number(raw);
  return Number.isInteger(n) ? n : -1;
}

/** One SSE frame; the data is one JSON line, which never holds a raw newline. */
function frame(e: LoggedEvent): string {
  return `id: ${e.seq}\nevent: ${e.type}\ndata: ${e.json}\n\n`;
}

/**
 * A run as Server-Sent Events: one frame per event (`id:` seq, `event:` type,
 * `data:` JSON), the missed ones first, then live ones, a heartbeat comment
 * while quiet, and the stream closes after `run.finished`. Each client reads
 * the run's log at its own pace: the body is pulled, so a slow reader is
 * given the next frames only when it has taken the last ones, and nothing is
 * queued for it. At the live tail a reader wakes once per turn of the event
 * loop or per WAKE_AFTER events, not once per event, and takes what came in
 * one write. A client that goes away only stops reading: the run goes on.
 */
export function runEvents(c: Context, runs: Runs, runId: string, after: number, heartbeatMs = HEARTBEAT_MS): Response {
  let cursor: LogCursor = { seq: after };
  const encoder = new TextEncoder();
  // Read once now, so an unknown run is a 404 rather than an empty stream.
  let first: ReturnType<Runs["read"]> | undefined = runs.read(runId, cursor, BATCH_BYTES);
  // The stream stays open however long the run is quiet or the client is slow: the server's idle timeout is not for it.
  keepOpen(c, 0);
  let wake: (() => void) | undefined;
  let wakeScheduled = false;
  /** Events logged since this client last read. */
  let unread = 0;
  let quiet = true;
  let stopped = false;
  let stop = () => {};
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const unwatch = runs.watch(runId, () => {
          if (!wake) return;
          // While the agent's output keeps coming the loop may not turn for a while: a full batch goes now.
          if (++unread >= WAKE_AFTER) return wake();
          if (wakeScheduled) return;
          wakeScheduled = true;
          setImmediate(() => {
            wakeScheduled = false;
            wake?.();
          });
        });
        const heartbeat = setInterval(() => {
          if (wake && quiet) controller.enqueue(encoder.encode(": hb\n\n"));
          quiet = true;
        }, heartbeatMs);
        stop = () => {
          stopped = true;
          unwatch();
          clearInterval(heartbeat);
          wake?.();
        };
      },
      async pull(controller) {
        for (;;) {
          const batch = first ?? runs.read(runId, cursor, BATCH_BYTES);
          first = undefined;
          unread = 0;
          cursor = batch.cursor;
          if (batch.events.length) {
            let text = "";
            let finished = false;
            for (const e of batch.events) {
              text += frame(e);
              if (e.type === "run.finished") {
                finished = true;
                break;
              }
            }
            quiet = false;
            controller.enqueue(encoder.encode(text));
            if (finished) {
              stop();
              controller.close();
            }
            return;
          }
          if (!batch.live) {
            // A run no server holds, read to the end of its log (a crash left it unfinished).
            stop();
            controller.close();
            return;
          }
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          wake = undefined;
          if (stopped) return;
        }
      },
      cancel() {
        stop();
      },
    },
    { highWaterMark: 0 },
  );
  return c.body(body, 200, {
    "Content-Type": "text/event-stream",
    "Cache-Control": "no-cache",
    Connection: "keep-alive",
    "X-Accel-Buffering": "no",
  });
}
