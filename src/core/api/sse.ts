import { OdError } from "../contract/errors.ts";

export interface SseEvent {
  event?: string;
  data: string;
}

/** One event larger than this is not a model's stream: the run fails instead of growing without bound. */
export const MAX_EVENT_BYTES = 8 * 1024 * 1024;

/**
 * Server-sent events from a response body: `event:` and `data:` fields (several
 * data lines join with "\n"), dispatched on a blank line; comments and other
 * fields are skipped; LF, CRLF and CR all end lines; a last event without its
 * blank line is still delivered.
 */
export async function* readSse(body: ReadableStream<Uint8Array>, maxEventBytes = MAX_EVENT_BYTES): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = "";
  let event: string | undefined;
  let data: string[] = [];
  let size = 0;

  function* line(text: string): Generator<SseEvent> {
    if (text === "") {
      if (data.length) yield { event, data: data.join("\n") };
      event = undefined;
      data = [];
      size = 0;
      return;
    }
    if (text.startsWith(":")) return;
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") event = value;
    else if (field === "data") {
      size += value.length;
      if (size > maxEventBytes) throw new OdError("AGENT_ERROR", `The provider sent one stream event over ${maxEventBytes} bytes`);
      data.push(value);
    }
  }

  const reader = body.getReader();
  try {
    for (;;) {
      let read: Awaited<ReturnType<typeof reader.read>>;
      try {
        read = await reader.read();
      } catch (err) {
        throw new OdError(
          "AGENT_ERROR",
          `The connection to the provider broke mid-stream: ${(err as Error)?.message ?? String(err)}`,
          "Try again.",
        );
      }
      if (read.done) break;
      buffer += decoder.decode(read.value, { stream: true });
      const eol = /\r\n|\r|\n/g;
      let pos = 0;
      for (let m = eol.exec(buffer); m; m = eol.exec(buffer)) {
        // A CR at the very end may be the first half of a CRLF: wait for the next chunk.
        if (m[0] === "\r" && m.index === buffer.length - 1) break;
        yield* line(buffer.slice(pos, m.index));
        pos = m.index + m[0].length;
      }
      buffer = buffer.slice(pos);
      if (buffer.length > maxEventBytes) throw new OdError("AGENT_ERROR", `The provider sent one stream line over ${maxEventBytes} bytes`);
    }
  } finally {
    reader.cancel().catch(() => {}); // a consumer that stops early closes the connection
  }
  buffer += decoder.decode();
  if (buffer) yield* line(buffer.replace(/\r$/, ""));
  yield* line("");
}
