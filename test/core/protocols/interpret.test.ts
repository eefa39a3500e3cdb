import { describe, expect, test } from "bun:test";
import type { OdEventBody } from "../../../src/core/events.ts";
import { linesDriver } from "../../../src/core/protocols/driver.ts";
import { finishing, interpret } from "../../../src/core/protocols/interpret.ts";

/** A plugin's line protocol whose parse and finish answer whatever the case asks. */
const driverOf = (answer: () => unknown) =>
  linesDriver({ kind: "lines", createState: () => ({}), parse: answer as () => OdEventBody[], finish: answer as () => OdEventBody[] });

const text: OdEventBody = { type: "text.delta", id: "t", text: "hi" };
const line = '{"t":"x"}';

// Each case: what the plugin answers, what one line becomes, what the end of the stream adds.
const cases: Array<[string, () => unknown, OdEventBody[], OdEventBody[]]> = [
  ["a list of valid events", () => [text], [text], [text]],
  ["an empty list", () => [], [], []],
  ["nothing (undefined)", () => undefined, [{ type: "raw", stream: "stdout", line }], []],
  ["a single event, not in a list", () => text, [{ type: "raw", stream: "stdout", line }], []],
  [
    "a throw",
    () => {
      throw new Error("plugin bug");
    },
    [{ type: "raw", stream: "stdout", line }],
    [],
  ],
  [
    "an event that breaks the schema",
    () => [{ type: "text.delta" }],
    [{ type: "raw", stream: "stdout", line }],
    [{ type: "raw", stream: "stdout", line: '{"type":"text.delta"}' }],
  ],
];

describe("a plugin's answers, line by line and at the end of the stream", () => {
  for (const [name, answer, onLine, atEnd] of cases)
    test(name, () => {
      const driver = driverOf(answer);
      expect(interpret(driver, {}, line).events).toEqual(onLine);
      expect(finishing(driver, {})).toEqual(atEnd);
    });
});
