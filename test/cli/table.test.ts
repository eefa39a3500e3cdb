import { describe, expect, test } from "bun:test";
import { runsTable, WIDTH } from "../../src/cli/runs.ts";
import { clip, fitRows } from "../../src/cli/table.ts";

const row = (agent: string, cwd: string, prompt: string) => [
  "1a2b3c4d",
  agent,
  "12 min ago",
  cwd,
  "succeeded",
  "123.4s",
  "123456/7890",
  prompt,
];

const HEADERS = ["a", "b", "c"];

describe("od runs fits 100 columns", () => {
  const cases: Array<[string, string[][]]> = [
    ["short", [row("pi", "~/p", "hi")]],
    ["a long prompt", [row("claude", "~/src/app", "refactor the whole thing ".repeat(20))]],
    ["a deep folder", [row("claude", "/very/deep/folder/structure/of/some/monorepo/packages/web/app", "fix it")]],
    [
      "both, and a compare run of many",
      [row("compare: claude, codex, gemini, pi, pi#2", "/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p", "x ".repeat(100))],
    ],
  ];
  for (const [name, rows] of cases)
    test(`${name}: every line fits ${WIDTH} columns`, () => {
      const text = runsTable(rows);
      expect(text.split("\n")[0]).toMatch(/ prompt$/);
      for (const line of text.split("\n")) expect(line.length).toBeLessThanOrEqual(WIDTH);
    });

  test("what fits is left alone; a folder keeps its end, a prompt its start", () => {
    expect(runsTable([row("pi", "~/p", "hi")]).split("\n")[1]).toMatch(/~\/p +succeeded .* hi$/);
    const fitted = runsTable([row("claude", `/deep/${"x".repeat(60)}/web/app`, `fix the flaky test ${"y".repeat(80)}`)]).split("\n")[1]!;
    expect(fitted).toMatch(/ …x*\/web\/app +succeeded /);
    expect(fitted).toMatch(/ fix the flaky.*…$/);
  });

  test("columns give way in order, each down to its floor", () => {
    const rows = [["x".repeat(30), "y".repeat(30), "z".repeat(30)]];
    expect(fitRows(HEADERS, rows, 70, [{ column: 2, min: 5 }])[0]).toEqual(["x".repeat(30), "y".repeat(30), `${"z".repeat(5)}…`]);
    expect(
      fitRows(HEADERS, rows, 50, [
        { column: 2, min: 10 },
        { column: 0, min: 5, clip: "start" },
      ])[0],
    ).toEqual([`…${"x".repeat(5)}`, "y".repeat(30), `${"z".repeat(9)}…`]);
  });

  test("clip", () => {
    expect(clip("abcdef", 4)).toBe("abc…");
    expect(clip("abcdef", 4, "start")).toBe("…def");
    expect(clip("abc", 4)).toBe("abc");
  });
});
