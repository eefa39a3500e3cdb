import { describe, expect, test } from "bun:test";
import { readSse } from "../../../src/core/api/sse.ts";

function body(chunks: string[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    start(c) {
      for (const s of chunks) c.enqueue(enc.encode(s));
      c.close();
    },
  });
}

async function all(chunks: string[], max?: number) {
  const out = [];
  for await (const e of readSse(body(chunks), max)) out.push(e);
  return out;
}

describe("readSse", () => {
  test("events, multi-line data, comments, CRLF and CR, split anywhere", async () => {
    const text = "event: a\r\ndata: 1\r\n\r\n: comment\n\ndata: x\ndata: y\n\nevent: b\rdata:no-space\r\r";
    const expected = [
      { event: "a", data: "1" },
      { event: undefined, data: "x\ny" },
      { event: "b", data: "no-space" },
    ];
    expect(await all([text])).toEqual(expected);
    for (let cut = 1; cut < text.length; cut++) expect(await all([text.slice(0, cut), text.slice(cut)])).toEqual(expected);
  });

  test("a UTF-8 character split across chunks survives; a last event without its blank line is delivered", async () => {
    const bytes = new TextEncoder().encode("data: ☃\n");
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes.slice(0, 7));
        c.enqueue(bytes.slice(7));
        c.close();
      },
    });
    const out = [];
    for await (const e of readSse(stream)) out.push(e);
    expect(out).toEqual([{ event: undefined, data: "☃" }]);
  });

  test("an event over the bound fails instead of growing", async () => {
    await expect(all([`data: ${"x".repeat(100)}\n\n`], 50)).rejects.toThrow("over 50 bytes");
    await expect(all([`data: ${"x".repeat(100)}`], 50)).rejects.toThrow("over 50 bytes");
  });
});
