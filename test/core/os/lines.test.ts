import { describe, expect, test } from "bun:test";
import { type Frame, frameChunks, frameLines, TailBuffer } from "../../../src/core/os/lines.ts";

const enc = new TextEncoder();

async function frames(chunks: Array<string | Uint8Array>, max?: number): Promise<Frame[]> {
  async function* source() {
    for (const c of chunks) yield typeof c === "string" ? enc.encode(c) : c;
  }
  const out: Frame[] = [];
  for await (const f of frameLines(source(), max)) out.push(f);
  return out;
}
const line = (text: string): Frame => ({ kind: "line", text });

describe("frameLines", () => {
  const cases: Array<[string, Array<string | Uint8Array>, Frame[]]> = [
    ["one line", ["a\n"], [line("a")]],
    ["two lines in one chunk", ["a\nb\n"], [line("a"), line("b")]],
    ["a line across chunks", ["ab", "c", "d\n"], [line("abcd")]],
    ["CRLF", ["a\r\nb\r\n"], [line("a"), line("b")]],
    ["unterminated last line is flushed", ["a\nb"], [line("a"), line("b")]],
    ["empty lines are kept as empty", ["\n\n"], [line(""), line("")]],
    ["no output", [], []],
  ];
  for (const [name, chunks, want] of cases) test(name, async () => expect(await frames(chunks)).toEqual(want));

  test("a UTF-8 character split across chunks survives", async () => {
    const bytes = enc.encode("héllo 😀 世界\n");
    const chunks = [...bytes].map((b) => new Uint8Array([b])); // one byte per chunk
    expect(await frames(chunks)).toEqual([line("héllo 😀 世界")]);
  });

  test("a line over the limit becomes one too-large frame and the next line is intact", async () => {
    expect(await frames(["x".repeat(10), "y".repeat(10), "\nok\n"], 15)).toEqual([{ kind: "too-large", bytes: 20 }, line("ok")]);
  });

  test("a line exactly at the limit passes", async () => {
    expect(await frames(["x".repeat(15), "\n"], 15)).toEqual([line("x".repeat(15))]);
  });

  test("an unterminated oversized last line is reported", async () => {
    expect(await frames(["ok\n", "z".repeat(40)], 15)).toEqual([line("ok"), { kind: "too-large", bytes: 40 }]);
  });
});

describe("frameChunks", () => {
  test("the lines each chunk completes come as one array; a chunk that completes none gives nothing", async () => {
    async function* source() {
      for (const c of ["a\nb\nc", "c", "d\n", "e\r\nf"]) yield enc.encode(c);
    }
    const out: Frame[][] = [];
    for await (const frames of frameChunks(source())) out.push(frames);
    expect(out).toEqual([[line("a"), line("b")], [line("ccd")], [line("e")], [line("f")]]);
  });
});

describe("TailBuffer", () => {
  test("keeps only the last bytes", () => {
    const t = new TailBuffer(8);
    for (const s of ["hello ", "world ", "again"]) t.push(enc.encode(s));
    expect(t.text()).toBe("ld again");
  });
  test("a single chunk larger than the limit", () => {
    const t = new TailBuffer(4);
    t.push(enc.encode("abcdefgh"));
    expect(t.text()).toBe("efgh");
  });
});
