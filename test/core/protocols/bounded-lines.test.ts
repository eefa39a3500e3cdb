import { describe, expect, test } from "bun:test";
import {
  boundedStdin,
  boundLines,
  LineBound,
  MAX_STDIO_LINE_BYTES,
  requestId,
  type Skipped,
  skippedError,
} from "../../../src/core/protocols/bounded-lines.ts";

const encode = (s: string) => Buffer.from(s);
const decode = (parts: Uint8Array[]) => parts.map((p) => Buffer.from(p).toString()).join("");

/** Chunks through a LineBound of `max` bytes: what passes, and what was skipped. */
function bound(chunks: string[], max = 10) {
  const skipped: Skipped[] = [];
  const b = new LineBound((s) => skipped.push(s), max);
  const pieces = [...chunks.flatMap((c) => b.push(encode(c))), ...b.end()];
  return { out: decode(pieces), skipped, pieces };
}

describe("LineBound: whole lines pass, lines over the limit are skipped", () => {
  const table: Array<[string, string[], string, Skipped[]]> = [
    ["lines in one chunk", ["a\nb\n"], "a\nb\n", []],
    ["a line across chunks", ["ab", "c", "\n"], "abc\n", []],
    ["a line of exactly the limit", ["0123456789\n"], "0123456789\n", []],
    ["CRLF is left as it is", ["a\r\nb\r\n"], "a\r\nb\r\n", []],
    ["one byte over", ["0123456789a\n"], "", [{ bytes: 11, id: null }]],
    ["over, across chunks, then a good line", ["01234", "567890123", "45\nok\n"], "ok\n", [{ bytes: 16, id: null }]],
    ["good, over, good in one chunk", ["a\nxxxxxxxxxxxx\nb\n"], "a\nb\n", [{ bytes: 12, id: null }]],
    ["over, ending exactly at a chunk's end", ["xxxxxxxxxxxx", "\n", "c\n"], "c\n", [{ bytes: 12, id: null }]],
    [
      "two over in a row",
      ["xxxxxxxxxxx\nyyyyyyyyyyyy\n"],
      "",
      [
        { bytes: 11, id: null },
        { bytes: 12, id: null },
      ],
    ],
    ["an unterminated last line passes", ["a\nbc"], "a\nbc", []],
    ["an unterminated last line over the limit is reported at the end", ["a\n", "xxxxxxxxxxxxxx"], "a\n", [{ bytes: 14, id: null }]],
    ["empty lines pass", ["\n\n"], "\n\n", []],
  ];
  test.each(table)("%s", (_, chunks, out, skipped) => expect(bound(chunks)).toMatchObject({ out, skipped }));

  test("pieces hold whole lines, never more than the limit (a line alone: and its newline)", () => {
    const { pieces } = bound(["aaa\nbbb\nccc\nddd\n0123456789\ne\n"]);
    expect(pieces.map((p) => Buffer.from(p).toString())).toEqual(["aaa\nbbb\n", "ccc\nddd\n", "0123456789\n", "e\n"]);
  });

  test("a skipped line's id is read from its first or last members", () => {
    const max = 64;
    const acp = `{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"text":"${"x".repeat(200)}"}}\n`;
    const mcp = `{"method":"tools/call","params":{"text":"${"x".repeat(200)}"},"jsonrpc":"2.0","id":"r-9"}\n`;
    expect(bound([acp.slice(0, 100), acp.slice(100), mcp], max).skipped).toEqual([
      { bytes: acp.length - 1, id: 3 },
      { bytes: mcp.length - 1, id: "r-9" },
    ]);
  });

  test("held bytes are copies: a chunk reused by its reader afterwards changes nothing", () => {
    const skipped: Skipped[] = [];
    const b = new LineBound((s) => skipped.push(s), 10);
    const chunk = encode("abc");
    expect(b.push(chunk)).toEqual([]);
    chunk.fill(0x7a);
    expect(decode(b.push(encode("d\n")))).toBe("abcd\n");
  });

  test("boundLines over a stream, and the limit is 8 MiB", async () => {
    async function* chunks() {
      yield encode('{"jsonrpc":"2.0","id":1,"method":"x"}\n{"id":2,"params":"');
      yield encode("x".repeat(40));
      yield encode('"}\n{"id":3}\n');
    }
    const skipped: Skipped[] = [];
    const out: Uint8Array[] = [];
    for await (const piece of boundLines(chunks(), (s) => skipped.push(s), 40)) out.push(piece);
    expect(decode(out)).toBe('{"jsonrpc":"2.0","id":1,"method":"x"}\n{"id":3}\n');
    expect(skipped).toEqual([{ bytes: 60, id: 2 }]);
    expect(MAX_STDIO_LINE_BYTES).toBe(8 * 1024 * 1024);
  });
});

describe("requestId: the id a skipped line names at either end, else null", () => {
  const table: Array<[string, string, string, string | number | null]> = [
    ["ACP's order: first members", '{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"prompt":"xx', "", 7],
    ["MCP's order: last members", "", 'xx"}},"jsonrpc":"2.0","id":7}', 7],
    ["a string id", '{"id":"abc-1","method":"m"', "", "abc-1"],
    ["id before jsonrpc at the end", "", 'xx"},"id":4,"jsonrpc":"2.0"}\r', 4],
    ["spaces", '{ "jsonrpc" : "2.0" , "id" : 12 ,', "", 12],
    ["an id nested in params (start) is not the request's", '{"method":"m","params":{"id":5,"x":"', "", null],
    ["an id nested in params (end) is not the request's", "", '"params":{"id":3}}', null],
    ["an id inside a string (end)", "", 'xx\\",\\"id\\":9"}}', null],
    ["an id inside a string (start)", '{"params":"x,\\"id\\":1,', "", null],
    ["a null id", '{"id":null,"method":"m"', "", null],
    ["a fractional id is no id", '{"id":1.5,"method":"m"', "", null],
    ["no object at all", "xxxxxxxx", "xxxxxxxx", null],
    ["a notification", '{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"x', 'x"}}', null],
  ];
  test.each(table)("%s", (_, head, tail, id) => expect(requestId(head, tail)).toBe(id));
});

test("boundedStdin: what passes as a Node byte stream; a skipped line answered on stdout and said on stderr", async () => {
  async function* stdin() {
    yield encode(`{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"params":"${"x".repeat(9 * 1024 * 1024)}`);
    yield encode('"}\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
  }
  const written: string[] = [];
  const warned: string[] = [];
  const input = boundedStdin((m) => warned.push(m), stdin(), { write: (s: string) => written.push(s) > 0 });
  const out: Buffer[] = [];
  for await (const chunk of input) out.push(chunk);
  expect(out.every((c) => Buffer.isBuffer(c))).toBe(true); // what the MCP SDK's reader expects
  expect(Buffer.concat(out).toString()).toBe('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
  expect(written.map((w) => JSON.parse(w))).toEqual([
    { jsonrpc: "2.0", id: 2, error: { code: -32600, message: expect.stringContaining("over the 8 MiB limit") } },
  ]);
  expect(warned).toEqual([expect.stringMatching(/^skipped a message of \d+ bytes: over the 8 MiB limit/)]);
});

test("skippedError: a JSON-RPC Invalid Request naming the size and the limit, one line", () => {
  const line = skippedError({ bytes: 16_777_300, id: 4 });
  expect(line.endsWith("\n")).toBe(true);
  expect(JSON.parse(line)).toEqual({
    jsonrpc: "2.0",
    id: 4,
    error: { code: -32600, message: "Message of 16777300 bytes is over the 8 MiB limit of od's stdio; it was skipped" },
  });
});
