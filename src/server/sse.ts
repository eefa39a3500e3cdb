import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { RunStore } from "./runs.ts";

export const HEARTBEAT_MS = 15_000;

interface Frame {
  id: string;
  event: string;
  data: string;
}

/** Where a client resumes: `Last-Event-ID` (what EventSource sends on reconnect), else `?after=`, else the start. */
export function resumeAfter(c: Context): number {
  const raw = c.req.header("last-event-id") ?? c.req.query("after");
  const n = raw === undefined ? Number.NaN : Number(raw);
  return Number.isInteger(n) ? n : -1;
}

/** Live frames a client may fall behind by before it is served from the run log instead. */
export const MAX_LAG = 1024;

/**
 * A run as Server-Sent Events: one frame per event (`id:` seq, `event:` type,
 * `data:` JSON), the missed ones first, then live ones, a heartbeat comment
 * while quiet, and the stream closes after `run.finished`. A client that goes
 * away only unsubscribes: the run goes on. A client that falls more than
 * `maxLag` live frames behind is detached and, once it has written what it
 * holds, attached again from the log after its last frame: memory stays
 * bounded however slow the reader, and no event is lost or repeated.
 */
export function runEvents(c: Context, store: RunStore, runId: string, after: number, heartbeatMs = HEARTBEAT_MS, maxLag = MAX_LAG): Response {
  const queue: Frame[] = [];
  let wake: (() => void) | undefined;
  let lagging = false;
  let replaying = false;
  const attach = (from: number) => {
    replaying = true;
    try {
      return store.subscribe(runId, from, (e, json) => {
        if (lagging) return;
        if (!replaying && queue.length >= maxLag) lagging = true;
        else queue.push({ id: String(e.seq), event: e.type, data: json });
        wake?.();
      });
    } finally {
      replaying = false;
    }
  };
  let unsubscribe = attach(after);
  c.header("X-Accel-Buffering", "no");
  return streamSSE(c, async (stream) => {
    let closed = false;
    let last = after;
    stream.onAbort(() => {
      closed = true;
      wake?.();
    });
    const heartbeat = setInterval(() => {
      stream.write(": hb\n\n").catch(() => {});
    }, heartbeatMs);
    try {
      while (!closed) {
        if (queue.length) {
          // Take the backlog in one go: shift() per frame is linear in the queue's length.
          for (const frame of queue.splice(0)) {
            await stream.writeSSE(frame);
            last = Number(frame.id);
            if (frame.event === "run.finished") return;
          }
        } else if (lagging) {
          // Everything held is written: pick up after it from the log, then live again.
          unsubscribe();
          lagging = false;
          unsubscribe = attach(last);
        } else {
          await new Promise<void>((resolve) => {
            wake = resolve;
            if (queue.length || closed || lagging) resolve();
          });
          wake = undefined;
        }
      }
    } finally {
      clearInterval(heartbeat);
      unsubscribe();
    }
  });
}
