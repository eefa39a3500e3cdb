/**
 * Separate messages stay separate in the answer: each adapter's parser gives each message its own
 * text part id, the pipeline starts a new part with a paragraph break (Paragraphs), and run.result's
 * text (Summary) joins them. Replays real fixtures through the driver, Paragraphs and the summary,
 * the way the pipeline does.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadRegistry } from "../../src/builtins.ts";
import { driverFor } from "../../src/core/agents/driver-for.ts";
import type { OdEventBody } from "../../src/core/contract/events.ts";
import { interpret } from "../../src/core/protocols/interpret.ts";
import { Paragraphs } from "../../src/core/run/parts.ts";
import { Summary } from "../../src/core/run/summary.ts";
import { FIXTURES } from "../helpers.ts";

const registry = await loadRegistry([]);

/** The answer run.result would carry for a fixture, and the text part ids in order. */
async function answer(adapterId: string, scenario: string) {
  const adapter = registry.get(adapterId)!.adapter;
  const driver = driverFor(adapter);
  const { state } = driver.start({ agent: { name: adapter.name }, prompt: "Say hi", cwd: "/work/project", mode: "edit" });
  const lines = readFileSync(join(FIXTURES, adapterId, `${scenario}.jsonl`), "utf8")
    .replace(/\n$/, "")
    .split("\n");
  const events: OdEventBody[] = [];
  const paragraphs = new Paragraphs();
  for (const line of lines) {
    const step = interpret(driver, state, line);
    if (step instanceof Promise) throw new Error("built-in drivers answer at once");
    events.push(...step.events.map((e) => paragraphs.apply(e)));
  }
  const summary = new Summary(undefined);
  for (const e of events) summary.observe(e);
  const ids = [...new Set(events.flatMap((e) => (e.type === "text.delta" ? [e.id] : [])))];
  return { text: (await summary.result()).text, ids };
}

describe("answer parts", () => {
  test("codex: two agent_message items are two parts, a paragraph apart", async () => {
    expect(await answer("codex", "two-messages")).toEqual({ text: "Let me check.\n\nDone!", ids: ["item_0", "item_2"] });
  });

  test("pi: text before a tool call and the answer after it are two parts", async () => {
    expect(await answer("pi", "text-tool-text")).toEqual({ text: "Let me write it.\n\nTOOL_DONE_OK", ids: ["m1:0", "m2:0"] });
  });

  test("one streamed message stays one part, its deltas joined as they came", async () => {
    expect(await answer("pi", "plain")).toEqual({ text: "QUICK_CHAT_OK", ids: ["m1:0"] });
    expect((await answer("claude", "plain")).ids).toHaveLength(1);
    expect((await answer("cursor-agent", "repeated-delta")).ids).toHaveLength(1);
  });
});
