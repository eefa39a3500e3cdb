/**
 * The readers every parser shares (parsers of line protocols, ACP, pi-rpc and od's own API loop).
 * Two `num`s used to disagree on negatives: a number is read whatever its sign (an exit code of -1
 * is -1), and a count (tokens, a cost) is a number that is not negative. Two `parseToolInput`s
 * (od's API loop's and the stream-json parser's) are one: a tool's input is always an object.
 */
import { describe, expect, test } from "bun:test";
import { asRecord, count, num, parseToolInput, partText, rec, textOf } from "../../../src/core/protocols/parse-helpers.ts";

const numbers: Array<[string, unknown, number | undefined, number | undefined]> = [
  // what, value, num, count
  ["zero", 0, 0, 0],
  ["a positive integer", 42, 42, 42],
  ["a fraction (a cost)", 0.0125, 0.0125, 0.0125],
  ["a negative exit code", -1, -1, undefined],
  ["negative zero", -0, -0, -0],
  ["NaN", Number.NaN, undefined, undefined],
  ["Infinity", Number.POSITIVE_INFINITY, undefined, undefined],
  ["-Infinity", Number.NEGATIVE_INFINITY, undefined, undefined],
  ["a numeric string", "3", undefined, undefined],
  ["null", null, undefined, undefined],
  ["undefined", undefined, undefined, undefined],
  ["a boolean", true, undefined, undefined],
  ["an object", { n: 1 }, undefined, undefined],
];

describe("num and count", () => {
  for (const [what, value, asNum, asCount] of numbers)
    test(`${what}: num ${asNum}, count ${asCount}`, () => {
      expect(num(value)).toBe(asNum as number);
      expect(count(value)).toBe(asCount as number);
    });
});

const records: Array<[string, unknown, boolean]> = [
  ["an object", { a: 1 }, true],
  ["an empty object", {}, true],
  ["an array", [1], false],
  ["null", null, false],
  ["a string", "x", false],
  ["a number", 1, false],
  ["undefined", undefined, false],
];

describe("asRecord and rec", () => {
  for (const [what, value, isRecord] of records)
    test(`${what}: ${isRecord ? "a record" : "not a record"}`, () => {
      expect(asRecord(value)).toBe((isRecord ? value : undefined) as never);
      expect(rec(value)).toEqual(isRecord ? (value as Record<string, unknown>) : {});
      if (isRecord) expect(rec(value)).toBe(value as never);
    });
  test("rec reads down a path that is not there", () => {
    expect(rec(rec(rec(undefined).message).usage).input_tokens).toBeUndefined();
  });
});

const cut = `{"path": "${"x".repeat(1500)}`;
const inputs: Array<[string, string, unknown[], unknown]> = [
  // what, the streamed JSON, the whole inputs known otherwise, the input
  ["no JSON and nothing else", "", [], {}],
  ["blank JSON", "  \n", [], {}],
  ["no JSON: the input the block started with", "", [{ path: "a" }], { path: "a" }],
  ["no JSON: an empty start input gives way to the wrapper's", "", [{}, { path: "b" }], { path: "b" }],
  ["no JSON: inputs that are no object are passed over", "", ["x", [1], null, { path: "c" }], { path: "c" }],
  ["whole JSON wins over what else is known", '{"path":"d"}', [{ path: "e" }], { path: "d" }],
  ["JSON cut short, nothing else: the text under _partial", '{"path": "x', [], { _partial: '{"path": "x' }],
  ["JSON cut short: the input known otherwise", '{"path": "x', [{ path: "f" }], { path: "f" }],
  ["JSON that is no object: under _partial", "[1, 2]", [], { _partial: "[1, 2]" }],
  ["a string of JSON: under _partial", '"abc"', [], { _partial: '"abc"' }],
  ["a long cut: its first 1,000 characters", cut, [], { _partial: cut.slice(0, 1000) }],
];

describe("parseToolInput", () => {
  for (const [what, json, whole, input] of inputs) test(what, () => expect(parseToolInput(json, ...whole)).toEqual(input as never));
});

describe("textOf", () => {
  test("a content list: strings and text parts as they are, other typed parts as [type], empty and unknown parts left out, one per line", () => {
    const content = ["a", { type: "text", text: "b" }, { type: "image", data: "…" }, "", { text: "" }, { x: 1 }, null, 7, { text: "c" }];
    expect(textOf(content)).toBe("a\nb\n[image]\nc");
    expect(textOf([])).toBe("");
    expect(textOf(["", { text: "" }])).toBe("");
  });

  test("a string, one part, an object with content, and anything else as JSON", () => {
    expect(textOf("plain")).toBe("plain");
    expect(textOf({ text: "t" })).toBe("t");
    expect(textOf({ content: [{ text: "x" }, { type: "diff" }] })).toBe("x\n[diff]");
    expect(textOf(undefined)).toBe("");
    expect(textOf({ n: 1 })).toBe('{"n":1}');
  });

  test("partText reads one part as textOf reads it in a list", () => {
    for (const part of ["s", "", { text: "t" }, { type: "image" }, { text: 3, type: "x" }, {}, null, undefined, 5])
      expect(partText(part)).toBe(textOf([part]));
  });
});
