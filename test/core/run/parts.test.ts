/**
 * Paragraphs, from a table the way ESLint's RuleTester runs rules: text parts as the parser gave
 * them (id, text, parent), and the texts that leave the pipeline. A part that follows another of
 * its kind starts with what makes a blank line between them, counting the breaks either side has.
 */
import { describe, expect, test } from "bun:test";
import type { OdEventBody } from "../../../src/core/contract/events.ts";
import { Paragraphs, partBreak } from "../../../src/core/run/parts.ts";
import { Summary } from "../../../src/core/run/summary.ts";

type Part = [id: string, text: string, parent?: string];
const delta = ([id, text, parent]: Part): OdEventBody => ({ type: "text.delta", id, text, ...(parent ? { parent } : {}) });

const cases: Array<{ name: string; parts: Part[]; out: string[] }> = [
  {
    name: "one part's deltas pass as they came",
    parts: [
      ["m1", "Let me"],
      ["m1", " check."],
    ],
    out: ["Let me", " check."],
  },
  {
    name: "Open Design's codex case: separate messages, no line breaks of their own",
    parts: [
      ["item_0", "English: one"],
      ["item_1", "Chinese: 一"],
    ],
    out: ["English: one", "\n\nChinese: 一"],
  },
  {
    name: "a message that ends its line needs one more",
    parts: [
      ["a", "Done!\n"],
      ["b", "Again."],
    ],
    out: ["Done!\n", "\nAgain."],
  },
  {
    name: "a blank line already there adds nothing",
    parts: [
      ["a", "Again.\n\n"],
      ["b", "Last."],
    ],
    out: ["Again.\n\n", "Last."],
  },
  {
    name: "a part that starts with its own break is counted",
    parts: [
      ["a", "one"],
      ["b", "\ntwo"],
    ],
    out: ["one", "\n\ntwo"],
  },
  { name: "the first part starts with nothing added", parts: [["a", "first"]], out: ["first"] },
  {
    name: "an empty delta adds nothing, and does not start a part",
    parts: [
      ["a", "x"],
      ["b", ""],
      ["a", "y"],
    ],
    out: ["x", "", "y"],
  },
  {
    name: "a sub-agent's words are a stream of their own: the answer around them is one paragraph",
    parts: [
      ["m1", "Let me"],
      ["s1", "sub words", "t1"],
      ["s2", "more", "t1"],
      ["m1", " check."],
    ],
    out: ["Let me", "sub words", "\n\nmore", " check."],
  },
];

describe("Paragraphs", () => {
  for (const c of cases)
    test(c.name, () => {
      const paragraphs = new Paragraphs();
      expect(c.parts.map((p) => (paragraphs.apply(delta(p)) as { text: string }).text)).toEqual(c.out);
    });

  test("thinking parts come apart too; text and thinking do not count against each other", () => {
    const p = new Paragraphs();
    const out = [
      p.apply({ type: "thinking.delta", id: "r1", text: "I should look." }),
      p.apply({ type: "text.delta", id: "m1", text: "Looking." }),
      p.apply({ type: "thinking.delta", id: "r2", text: "Found it." }),
    ].map((e) => (e as { text: string }).text);
    expect(out).toEqual(["I should look.", "Looking.", "\n\nFound it."]);
  });

  test("other events pass untouched, the same object", () => {
    const call: OdEventBody = { type: "tool.call", id: "t", name: "ls", input: {} };
    expect(new Paragraphs().apply(call)).toBe(call);
  });

  test("the answer in run.result is the parts joined: a paragraph between messages, none inside one", async () => {
    const p = new Paragraphs();
    const summary = new Summary(undefined);
    const parts: Part[] = [
      ["m1", "Let me"],
      ["m1", " check."],
      ["sub", "a sub-agent's words", "t1"],
      ["m2", "Done!\n"],
      ["m3", "Again.\n\n"],
      ["m4", "Last."],
    ];
    for (const part of parts) summary.observe(p.apply(delta(part)));
    expect((await summary.result()).text).toBe("Let me check.\n\nDone!\n\nAgain.\n\nLast.");
  });

  test("partBreak: nothing before nothing, a blank line's worth otherwise", () => {
    expect(partBreak("", "x")).toBe("");
    expect(partBreak("a", "b")).toBe("\n\n");
    expect(partBreak("a\n", "b")).toBe("\n");
    expect(partBreak("a", "\n\nb")).toBe("");
  });
});
