/** A tool call's input as ACP's rawInput: an object, bounded, never a string or cut JSON. */
import { describe, expect, test } from "bun:test";
import { RAW_INPUT_LIMIT, rawInputOf } from "../../src/acp/raw-input.ts";

const big = "x".repeat(200_000);
const emoji = "😀".repeat(20_000);
/** 5000 small fields: more than fit, and more than the note can name. */
const many = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`field-${i}`, i]));

describe("rawInputOf", () => {
  const cases: Array<[string, unknown, unknown]> = [
    ["no input: none", undefined, undefined],
    ["an object that fits: itself", { file_path: "a.txt", content: "hi" }, { file_path: "a.txt", content: "hi" }],
    ["an empty object: itself", {}, {}],
    ["a string: wrapped", "ls -la", { value: "ls -la" }],
    ["an array: wrapped", ["a", "b"], { value: ["a", "b"] }],
    ["null: wrapped", null, { value: null }],
    [
      "a large string field: its beginning, the other fields whole, and a note",
      { file_path: "a.txt", content: big, mode: 420 },
      {
        file_path: "a.txt",
        content: expect.stringMatching(/^x{15000,}$/),
        mode: 420,
        _truncated: { size: 200_045, shortened: ["content"], omitted: [] },
      },
    ],
    [
      "a large nested field: left out, the later ones kept while they fit",
      { edits: [{ old: big }], path: "b.txt" },
      { path: "b.txt", _truncated: { size: 200_037, shortened: [], omitted: ["edits"] } },
    ],
    [
      "a large string: wrapped, then cut",
      big,
      { value: expect.stringMatching(/^x+$/), _truncated: expect.objectContaining({ shortened: ["value"] }) },
    ],
  ];
  for (const [name, input, expected] of cases) test(name, () => expect(rawInputOf(input)).toEqual(expected as never));

  test("whatever the input, the result is an object whose JSON fits the limit and parses back to itself", () => {
    for (const input of [
      big,
      { content: big },
      { a: big, b: big, c: 1 },
      { text: emoji },
      { nested: { deep: big } },
      Array(5000).fill("ab"),
      many,
    ]) {
      const out = rawInputOf(input)!;
      expect(typeof out === "object" && !Array.isArray(out)).toBe(true);
      const json = JSON.stringify(out);
      expect(json.length).toBeLessThanOrEqual(RAW_INPUT_LIMIT);
      expect(JSON.parse(json)).toEqual(out);
    }
  });

  test("fields past the note's room are counted, not named", () => {
    const note = (rawInputOf(many) as { _truncated: { omitted: string[]; more: number } })._truncated;
    expect(note.omitted.length).toBeGreaterThan(0);
    expect(Object.keys(rawInputOf(many)!).length - 1 + note.omitted.length + note.more).toBe(5000);
  });

  test("a multi-byte character is never split", () => {
    const out = rawInputOf({ text: emoji }) as { text: string };
    expect(out.text.length % 2).toBe(0);
    expect(out.text).toBe("😀".repeat(out.text.length / 2));
  });
});
