// Streaming helpers: write SSE events (or a JSON array) with pauses and stalls.
import type { StreamCtx } from "./types.ts";

/** An event to send, a pause before the next one, or "stop sending until the client leaves". */
export type Frame = { event?: string; data: unknown } | { pause: number } | { stall: true };

export type StreamFormat = "sse" | "json-array";

const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
  connection: "keep-alive",
};

function encodeSse(f: { event?: string; data: unknown }): string {
  const data = typeof f.data === "string" ? f.data : JSON.stringify(f.data);
  return `${f.event ? `event: ${f.event}\n` : ""}data: ${data}\n\n`;
}

/** Stream the frames in order. Ends early when the client disconnects or the stub stops. */
export function streamResponse(frames: Frame[], ctx: StreamCtx, format: StreamFormat = "sse"): Response {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const enc = new TextEncoder();
  const write = async (s: string): Promise<void> => {
    if (!ctx.isDone()) await writer.write(enc.encode(s));
  };

  const run = async (): Promise<void> => {
    let sent = 0;
    if (format === "json-array") await write("[");
    for (const f of frames) {
      if (ctx.isDone()) return;
      if ("pause" in f) {
        await Promise.race([Bun.sleep(f.pause), ctx.done]);
      } else if ("stall" in f) {
        await ctx.done;
        return;
      } else if (format === "sse") {
        await write(encodeSse(f));
      } else {
        await write(`${sent > 0 ? ",\r\n" : ""}${JSON.stringify(f.data)}`);
        sent += 1;
      }
    }
    if (format === "json-array") await write("]");
  };

  void run()
    .catch(() => undefined) // the client went away mid-write
    .finally(() => {
      ctx.finish();
      writer.close().catch(() => undefined);
    });

  const headers = format === "sse" ? SSE_HEADERS : { "content-type": "application/json; charset=utf-8" };
  return new Response(readable, { status: 200, headers });
}

/** Interleave a pause between events when delayMs > 0. */
export function paced(events: Frame[], delayMs: number): Frame[] {
  if (delayMs <= 0) return events;
  return events.flatMap((e, i) => (i === 0 ? [e] : [{ pause: delayMs }, e]));
}

export function json(body: unknown, status = 200): Response {
  return Response.json(body, { status });
}

/** Hang without answering (non-streaming stall) until the client leaves or the stub stops. */
export async function hang(ctx: StreamCtx): Promise<Response> {
  await ctx.done;
  return json({ error: "stalled request ended" }, 503);
}
