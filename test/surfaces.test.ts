/**
 * Every surface against the whole event contract: each event type is handled (written, drawn, sent)
 * or listed by the surface as deliberately left out, with a reason. A type added to the contract
 * that a surface neither handles nor lists fails here, instead of being dropped without a word.
 */
import { describe, expect, test } from "bun:test";
import { NOT_SENT, newUpdateState, toUpdates } from "../src/acp/updates.ts";
import { createTextRenderer, NOT_SHOWN } from "../src/cli/render.ts";
import { EVENT_TYPES, type EventType, OdEvent } from "../src/core/contract/events.ts";
import { OBSERVED } from "../src/mcp/observed.ts";
import { watchRun } from "../src/server/ui/stream.js";
import { DRAW, NOT_DRAWN } from "../src/server/ui/transcript.js";
import { SAMPLES, sampleEvent } from "./support/sample-events.ts";

/** What is wrong with a surface: types it neither handles nor lists, listed ones it handles after all, reasons left empty. */
function problems(handles: (type: EventType) => boolean, left: Partial<Record<string, string>>): string[] {
  return EVENT_TYPES.flatMap((type) => {
    const reason = left[type];
    if (reason !== undefined && !reason.trim()) return [`${type}: listed as left out without a reason`];
    const handled = handles(type);
    if (!handled && reason === undefined) return [`${type}: neither handled nor listed as left out`];
    if (handled && reason !== undefined) return [`${type}: listed as left out, but handled`];
    return [];
  });
}

describe("every surface handles every event type of the contract", () => {
  test("the samples: one valid event of each type", () => {
    expect(Object.keys(SAMPLES)).toEqual([...EVENT_TYPES]);
    for (const type of EVENT_TYPES) expect(OdEvent.safeParse(sampleEvent(type)).success).toBe(true);
  });

  test("ACP (src/acp/updates.ts): each type becomes session/updates, or is listed as not sent", () => {
    expect(problems((type) => toUpdates(sampleEvent(type), newUpdateState()).length > 0, NOT_SENT)).toEqual([]);
  });

  test("the terminal (src/cli/render.ts): each type is written, or listed as not shown", () => {
    const written = (type: EventType) => {
      let text = "";
      const sink = { write: (s: string) => (text += s) };
      // A run that started: its finish line is said (a run refused before it started ends with its error alone).
      const render = createTextRenderer(sink, sink);
      if (type !== "run.started") render(sampleEvent("run.started"));
      text = "";
      render(sampleEvent(type, 1));
      return text.length > 0;
    };
    expect(problems(written, NOT_SHOWN)).toEqual([]);
  });

  test("the web UI's transcript (src/server/ui/transcript.js): each type has a renderer, or is listed as not drawn", () => {
    expect(problems((type) => typeof (DRAW as Record<string, unknown>)[type] === "function", NOT_DRAWN)).toEqual([]);
  });

  test("the web UI's stream (src/server/ui/stream.js) listens to every type", () => {
    const listened = new Set<string>();
    const real = globalThis.EventSource;
    globalThis.EventSource = class {
      static CLOSED = 2;
      addEventListener(type: string) {
        listened.add(type);
      }
      close() {}
    } as unknown as typeof EventSource;
    try {
      watchRun("r-1", { onEvent: () => {} }).close();
    } finally {
      globalThis.EventSource = real;
    }
    expect(EVENT_TYPES.filter((type) => !listened.has(type))).toEqual([]);
  });

  test("MCP's run_agent (src/mcp/observed.ts) says what it does with each type", () => {
    expect(Object.keys(OBSERVED)).toEqual([...EVENT_TYPES]);
    expect(EVENT_TYPES.filter((type) => !OBSERVED[type]?.trim())).toEqual([]);
  });
});
