/**
 * The readers every parser shares (parsers of line protocols, ACP, pi-rpc and od's own API loop).
 * Two `num`s used to disagree on negatives: a number is read whatever its sign (an exit code of -1
 * is -1), and a count (tokens, a cost) is a number that is not negative.
 */
import { describe, expect, test } from "bun:test";
import { asRecord, count, num, rec } from "../../../src/core/protocols/parse-helpers.ts";

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
