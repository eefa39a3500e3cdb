import { describe, expect, test } from "bun:test";
import type { OdEventBody } from "../../../src/core/contract/events.ts";
import { type Driver, linesDriver } from "../../../src/core/protocols/driver.ts";
import { finishing, interpret } from "../../../src/core/protocols/interpret.ts";

/** A plugin's line protocol whose parse and finish answer whatever the case asks. */
const driverOf = (answer: () => unknown) =>
  linesDriver({ kind: "lines", createState: () => ({}), parse: answer as () => OdEventBody[], finish: answer as () => OdEventBody[] });

/** The same, answering later (as a plugin's thread does): each answer a promise, a throw a rejection. */
const laterOf = (answer: () => unknown): Driver => ({
  ...driverOf(answer),
  receive: async () => ({ events: answer() as OdEventBody[] }),
  finish: async () => answer() as OdEventBody[],
});

const text: OdEventBody = { type: "text.delta", id: "t", text: "hi" };
const usage = { type: "usage", source: "turn", inputTokens: 5, outputTokens: Infinity, costUsd: -1 } as OdEventBody;
const counted: OdEventBody = { type: "usage", source: "turn", inputTokens: 5 };
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
  ["a usage with figures that are no counts (they are dropped)", () => [usage], [counted], [counted]],
];

describe("a plugin's answers, line by line and at the end of the stream", () => {
  for (const [name, answer, onLine, atEnd] of cases)
    test(name, async () => {
      const driver = driverOf(answer);
      const step = interpret(driver, {}, line);
      expect(step).not.toBeInstanceOf(Promise); // a driver that answers at once gets its step at once
      expect(step.events).toEqual(onLine);
      expect(finishing(driver, {})).toEqual(atEnd);
      // The same guarantees for a driver that answers with a promise, and a promise only then.
      const later = laterOf(answer);
      const promised = interpret(later, {}, line);
      expect(promised).toBeInstanceOf(Promise);
      expect((await promised).events).toEqual(onLine);
      const ending = finishing(later, {});
      expect(ending).toBeInstanceOf(Promise);
      expect(await ending).toEqual(atEnd);
    });
});

describe("blank lines", () => {
  const seen: string[] = [];
  const json = linesDriver({ kind: "lines", createState: () => ({}), parse: (_r, _s, l) => (seen.push(l), [text]) });
  const plain = linesDriver({ kind: "lines", format: "text", createState: () => ({}), parse: (_r, _s, l) => (seen.push(l), [text]) });

  test("are nothing in a JSON stream, whatever their white space; a record after white space is read, a line that only starts with it is kept", () => {
    for (const blank of ["", " ", "\t\r", "\u00a0", "\ufeff", "\u2028 \u3000"]) expect(interpret(json, {}, blank).events).toEqual([]);
    expect(seen).toEqual([]);
    expect(interpret(json, {}, ' \t{"t":"x"}').events).toEqual([text]);
    expect(interpret(json, {}, "\ufeff[1]").events).toEqual([{ type: "raw", stream: "stdout", line: "\ufeff[1]" }]);
  });

  test("are lines of a text stream, passed on as they are", () => {
    seen.length = 0;
    for (const blank of ["", " ", "\u00a0"]) expect(interpret(plain, {}, blank).events).toEqual([text]);
    expect(seen).toEqual(["", " ", "\u00a0"]);
  });
});

describe("lines JSON.parse refuses", () => {
  const records: unknown[] = [];
  const json = linesDriver({ kind: "lines", createState: () => ({}), parse: (r) => (records.push(r), [text]) });
  const rawOf = (l: string): OdEventBody => ({ type: "raw", stream: "stdout", line: l });

  // Each case: the line, what it becomes, whether it is broken structured output, and the value the
  // parser gets when it is JSON. A line no JSON value can begin is not handed to JSON.parse at all
  // (a throw costs ~0.5 µs): the answers must be those of the throw.
  const lines: Array<[string, OdEventBody[], boolean?, unknown?]> = [
    ["not json: a stray log line", [rawOf("not json: a stray log line")]],
    ["Reading additional input from stdin...", [rawOf("Reading additional input from stdin...")]],
    ["truest", [rawOf("truest")]],
    ["false!", [rawOf("false!")]],
    ["-", [rawOf("-")]],
    ["\ufeff[1]", [rawOf("\ufeff[1]")], true],
    ['{"type":"item","text":"hi', [rawOf('{"type":"item","text":"hi')], true],
    ['{"type":"x","delta":"half"', [rawOf('{"type":"x","delta":"half"'), { type: "text.delta", id: "degraded", text: "half" }], true],
    [
      '{"text":"a\\"b\\n","content":[{"delta":"c"},{"text":"d',
      [rawOf('{"text":"a\\"b\\n","content":[{"delta":"c"},{"text":"d'), { type: "text.delta", id: "degraded", text: 'a"b\nc' }],
      true,
    ],
    ["null", [text], false, null],
    [" true \r", [text], false, true],
    ["false", [text], false, false],
    ["-1.5", [text], false, -1.5],
    ['"a string"', [text], false, "a string"],
  ];

  for (const [line, events, malformed, record] of lines)
    test(`${JSON.stringify(line)} → ${events.map((e) => e.type).join(", ")}${malformed ? " (malformed)" : ""}`, () => {
      records.length = 0;
      const step = interpret(json, {}, line);
      expect(step.events).toEqual(events);
      expect(Boolean(step.malformed)).toBe(Boolean(malformed));
      expect(records).toEqual(events[0] === text ? [record] : []);
    });
});
