import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { OdEvent } from "../core/events.ts";
import type { RunStore } from "./runs.ts";

export const HEARTBEAT_MS = 15_000;

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
  const queue: OdEvent[] = [];
  let wake: (() => void) | undefined;
  const unsubscribe = store.subscribe(runId, after, (e) => {
    queue.push(e);
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
        while (queue.length) {
          const e = queue.shift()!;
          await stream.writeSSE({ id: String(e.seq), event: e.type, data: JSON.stringify(e) });
          if (e.type === "run.finished") return;
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
