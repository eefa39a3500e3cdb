/** The Usage view's numbers (src/server/ui/chart.js, usage-tables.js): round axis ticks, tokens and dollars written short. */
import { describe, expect, test } from "bun:test";
import { niceTicks } from "../../src/server/ui/chart.js";
import { money, tokens } from "../../src/server/ui/usage-tables.js";

describe("the Usage view's numbers", () => {
  // [the largest value, the ticks from 0]
  const ticks: Array<[number, number[]]> = [
    [0, [0, 1]],
    [1, [0, 0.5, 1]],
    [0.3, [0, 0.1, 0.2, 0.3]],
    [0.42, [0, 0.2, 0.4, 0.6]],
    [7, [0, 2, 4, 6, 8]],
    [8500, [0, 5000, 10000]],
    [12_900, [0, 5000, 10000, 15000]],
    [150_000, [0, 50000, 100000, 150000]],
    [2_700_000, [0, 1_000_000, 2_000_000, 3_000_000]],
  ];
  for (const [max, want] of ticks)
    test(`ticks up to ${max}: ${want.join(", ")}`, () => {
      expect(niceTicks(max)).toEqual(want);
    });
  test("whole steps for what is counted whole: 3 tokens at most is 0, 1, 2, 3, not halves", () => {
    expect(niceTicks(3, 4, 1)).toEqual([0, 1, 2, 3]);
    expect(niceTicks(1, 4, 1)).toEqual([0, 1]);
    expect(niceTicks(0, 4, 1)).toEqual([0, 1]);
  });

  // [tokens, written]
  const counts: Array<[number, string]> = [
    [0, "0"],
    [850, "850"],
    [1000, "1k"],
    [2400, "2.4k"],
    [12_900, "12.9k"],
    [150_400, "150k"],
    [999_499, "999k"],
    [999_500, "1M"],
    [1_250_000, "1.3M"],
    [150_000_000, "150M"],
  ];
  for (const [n, want] of counts) test(`${n} tokens: ${want}`, () => expect(tokens(n)).toBe(want));

  // [dollars, written]
  const dollars: Array<[number, string]> = [
    [0, "$0"],
    [0.0042, "$0.0042"],
    [0.01, "$0.01"],
    [0.41000000000000003, "$0.41"],
    [3.2, "$3.20"],
  ];
  for (const [usd, want] of dollars) test(`$${usd}: ${want}`, () => expect(money(usd)).toBe(want));
});
