import { describe, expect, test } from "bun:test";
import { EVENT_TYPES, eventJsonSchema, isEventBody, OdEvent } from "../../../src/core/contract/events.ts";

describe("the event contract", () => {
  test("the union has one variant per name in EVENT_TYPES, in its order", () => {
    expect(OdEvent.options.map((o) => o.shape.type.value)).toEqual([...EVENT_TYPES]);
  });

  test("a plan is its own event: entries with a status, a priority where the agent gives one", () => {
    const plan = {
      type: "plan",
      entries: [
        { content: "read the code", status: "completed", priority: "high" },
        { content: "write the test", status: "in_progress" },
        { content: "ship", status: "pending" },
      ],
    };
    expect(isEventBody(plan)).toBe(true);
    expect(isEventBody({ type: "plan", entries: [{ content: "x", status: "done" }] })).toBe(false);
    expect(isEventBody({ type: "plan", entries: [{ content: "x", status: "pending", priority: "urgent" }] })).toBe(false);
  });

  test("a tool.call's kind and paths are optional: a plugin that says nothing still validates, a wrong kind does not", () => {
    expect(isEventBody({ type: "tool.call", id: "c", name: "Frob", input: {} })).toBe(true);
    expect(isEventBody({ type: "tool.call", id: "c", name: "Read", input: {}, kind: "read", paths: ["src/a.ts"] })).toBe(true);
    expect(isEventBody({ type: "tool.call", id: "c", name: "rm", input: {}, kind: "delete" })).toBe(false);
    expect(isEventBody({ type: "tool.call", id: "c", name: "Read", input: {}, paths: "src/a.ts" })).toBe(false);
  });

  test("the JSON Schema served at /api/schema/events says so", () => {
    const schema = JSON.stringify(eventJsonSchema());
    expect(schema).toContain('"plan"');
    expect(schema).toContain('"in_progress"');
    for (const kind of ["read", "edit", "execute", "search", "fetch", "think", "other"]) expect(schema).toContain(`"${kind}"`);
  });
});
