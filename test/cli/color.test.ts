import { expect, test } from "bun:test";
import { colorFor, plain, stripAnsi } from "../../src/cli/color.ts";

const tty = { isTTY: true };
const pipe = { isTTY: false };

test.each([
  ["a terminal", tty, {}, true],
  ["a pipe or a file", pipe, {}, false],
  ["a terminal, NO_COLOR=1", tty, { NO_COLOR: "1" }, false],
  ["a terminal, NO_COLOR=true", tty, { NO_COLOR: "true" }, false],
  ["a terminal, NO_COLOR empty (unset, says the convention)", tty, { NO_COLOR: "" }, true],
  ["a terminal, TERM=dumb", tty, { TERM: "dumb" }, false],
  ["a pipe, FORCE_COLOR=1", pipe, { FORCE_COLOR: "1" }, true],
  ["a pipe, FORCE_COLOR empty", pipe, { FORCE_COLOR: "" }, true],
  ["a terminal, FORCE_COLOR=0", tty, { FORCE_COLOR: "0" }, false],
  ["a terminal, FORCE_COLOR=false", tty, { FORCE_COLOR: "false" }, false],
  ["a pipe, FORCE_COLOR=1 over NO_COLOR=1", pipe, { FORCE_COLOR: "1", NO_COLOR: "1" }, true],
] as const)("colour on %s: %p", (_what, stream, env, expected) => {
  expect(colorFor(stream, env)).toBe(expected);
});

test("plain takes the colour codes out of what is written, and leaves the rest of the stream alone", () => {
  const written: string[] = [];
  const stream = { columns: 80, write: (s: string) => written.push(s) };
  const p = plain(stream);
  p.write("\x1b[43m\x1b[30m WARN \x1b[39m\x1b[49m text\n");
  expect(written).toEqual([" WARN  text\n"]);
  expect(p.columns).toBe(80);
  expect(stripAnsi("\x1b[4m\x1b[1mUSAGE\x1b[22m\x1b[24m")).toBe("USAGE");
});
