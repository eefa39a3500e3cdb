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

/**
 * A run as Server-Sent Events: one frame per event (`id:` seq, `event:` type,
 * `data:` JSON), the missed ones first, then live ones, a heartbeat comment
 * while quiet, and the stream closes after `run.finished`. A client that goes
 * away only unsubscribes: the run goes on.
 */
export function runEvents(c: Context, store: RunStore, runId: string, after: number, heartbeatMs = HEARTBEAT_MS): Response {
  const queue: Frame[] = [];
  let wake: (() => void) | undefined;
  const unsubscribe = store.subscribe(runId, after, (e, json) => {
    queue.push({ id: String(e.seq), event: e.type, data: json });
    wake?.();
  });
  c.header("X-Accel-Buffering", "no");
  return streamSSE(c, async (stream) => {
    let closed = false;
    stream.onAbort(() => {
      closed = true;
      wake?.();
    });
    const heartbeat = setInterval(() => {
      stream.write(": hb\n\n").catch(() => {});
    }, heartbeatMs);
    try {
      while (!closed) {
        // Take the backlog in one go: shift() per frame is linear in the queue's length.
        for (const frame of queue.splice(0)) {
          await stream.writeSSE(frame);
          if (frame.event === "run.finished") return;
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
          if (queue.length || closed) resolve();
        });
        wake = undefined;
      }
    } finally {
      clearInterval(heartbeat);
      unsubscribe();
    }
  });
}
