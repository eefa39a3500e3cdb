/**
 * The union the provider table is asked through: its alternatives grouped by first letter, it must
 * match exactly the texts one of its patterns matches (the grouping is for speed only).
 */
import { describe, expect, test } from "bun:test";
import { alternativesOf, unionOf } from "../../../src/core/protocols/regex-union.ts";

const splits: Array<[string, string, string[]]> = [
  ["plain words", "abc|def", ["abc", "def"]],
  ["a group's bar is its own", "a(?:b|c)d|e", ["a(?:b|c)d", "e"]],
  ["a class's bar is a character", "a[|]b|c", ["a[|]b", "c"]],
  ["an escaped bar is a character", "a\\|b|c", ["a\\|b", "c"]],
  ["an escaped bracket does not open a class", "a\\[|b", ["a\\[", "b"]],
  ["an escaped bracket does not close one", "[\\]|]|b", ["[\\]|]", "b"]],
  ["a lookbehind is a group", "(?<!disk )quota|x", ["(?<!disk )quota", "x"]],
  ["empty alternatives stay", "a||b", ["a", "", "b"]],
];

describe("alternativesOf", () => {
  for (const [what, source, want] of splits) test(what, () => expect(alternativesOf(source)).toEqual(want));
});

const patterns = [
  /insufficient (?:account )?balance|invalid[ _-]?api[ _-]?key|\b401\b(?!:\d)|unauthori[sz]ed/i,
  /(?<!disk )quota exceeded|a?pple|apricot|b*anana|bee|c{2}herry|Ice|i|\bInvalid model\b|[xy]ylophone|\/login/i,
  /The model [`'"]?[^`'"\s]+[`'"]? does not exist|rate[ _-]?limit|429/i,
];

const texts = [
  "insufficient balance",
  "Insufficient Account Balance",
  "INVALID_API_KEY",
  "status 401",
  "status 401:1",
  "x401",
  "Unauthorised",
  "disk quota exceeded",
  "Quota exceeded",
  "pple",
  "nana",
  "Apricot",
  "be",
  "cherry",
  "ccherry",
  "ICE",
  "I",
  "an invalid model here",
  "invalid modeling",
  "Xylophone",
  "run /login",
  "The model `gpt-9` does not exist",
  "the model gpt-9 does not exist",
  "Rate-Limit",
  "HTTP 429",
  "",
  "nothing to see",
];

describe("unionOf", () => {
  test("matches exactly the texts one of the patterns matches", () => {
    const union = unionOf(patterns);
    for (const text of texts) expect(union.test(text), text).toBe(patterns.some((p) => p.test(text)));
  });

  test("groups alternatives by their first letter, case folded under i; quantified or escaped ones stay as they are", () => {
    expect(unionOf([/abc|Abd|a?x|\bay/i]).source).toBe("a(?:bc|bd)|a?x|\\bay");
    expect(unionOf([/abc|Abd/]).source).toBe("abc|Abd");
  });

  test("case-sensitive patterns stay case-sensitive", () => {
    const union = unionOf([/Abc|abd/]);
    expect(["Abc", "abd", "abc", "ABD"].map((t) => union.test(t))).toEqual([true, true, false, false]);
  });

  test("refuses patterns that capture, or whose flags differ", () => {
    expect(() => unionOf([/a(b)/i])).toThrow(/captures/);
    expect(() => unionOf([/a(?<name>b)/i])).toThrow(/captures/);
    expect(unionOf([/(?<!x)a|(?<=y)b|(?=c)d|(?!e)f|(?:g)|\(h\)|[(]i|[\]()]j/i]).test("(h)")).toBe(true);
    expect(() => unionOf([/a/i, /b/])).toThrow(/flags/);
    expect(() => unionOf([/a/g])).toThrow(/flags/);
  });
});
