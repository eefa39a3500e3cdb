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
    ["CRLF split between chunks", ["a\r", "\nb\r", "\n"], [line("a"), line("b")]],
    ["multi-byte text before and after newlines in one chunk", ["é\n世界\n😀"], [line("é"), line("世界"), line("😀")]],
    // The first chunk ends inside "é"; the next starts with the rest of it, then a newline.
    [
      "a character split just before a newline",
      [new Uint8Array([0x61, 0xc3]), new Uint8Array([0xa9, 0x0a, 0x62, 0x0a])],
      [line("aé"), line("b")],
    ],
    [
      "invalid UTF-8 at a line's end is replaced there, not carried",
      [new Uint8Array([0x61, 0xc3, 0x0a, 0x62, 0x0a])],
      [line("a\uFFFD"), line("b")],
    ],
    ["an incomplete character at the end of the output", [new Uint8Array([0x61, 0xe4, 0xb8])], [line("a\uFFFD")]],
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

  test("a too-large line's bytes are counted across chunks, multi-byte text included, and the lines after it in its last chunk are intact", async () => {
    expect(await frames(["世界世界", "世界\n", "é\nok\n"], 15)).toEqual([{ kind: "too-large", bytes: 18 }, line("é"), line("ok")]);
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

describe("decoding", () => {
  const bytes = (...b: number[]) => new Uint8Array(b);
  test("a byte-order mark is dropped at the stream's start only; a U+FEFF at a later chunk's start is text", async () => {
    const bom = [0xef, 0xbb, 0xbf];
    expect(await frames([bytes(...bom, 0x61, 0x0a), bytes(...bom, 0x62, 0x0a)])).toEqual([line("a"), line("\ufeffb")]);
  });

  test("characters split at every chunk edge, between whole ASCII-ended chunks, survive", async () => {
    const text = "ab\né世\n😀x\nplain\n€\n";
    const all = enc.encode(text);
    for (let cut = 1; cut < all.length; cut++) {
      const chunks = [all.subarray(0, cut), all.subarray(cut), enc.encode("tail\n"), enc.encode("é\n")];
      const got = (await frames(chunks)).map((f) => (f.kind === "line" ? f.text : f.kind));
      expect({ cut, got }).toEqual({ cut, got: [...text.split("\n").slice(0, -1), "tail", "é"] });
    }
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
