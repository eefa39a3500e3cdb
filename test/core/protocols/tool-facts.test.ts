import { describe, expect, test } from "bun:test";
import { planStatus, todoPlan } from "../../../src/core/protocols/plan-entries.ts";
import { pathsIn, todosAt, toolCallEvents, toolTable } from "../../../src/core/protocols/tool-facts.ts";

describe("todo lists as plan entries", () => {
  test("statuses as CLIs spell them", () => {
    const spelled: Array<[unknown, string]> = [
      ["completed", "completed"],
      ["done", "completed"],
      ["TODO_STATUS_COMPLETED", "completed"],
      [true, "completed"],
      ["cancelled", "completed"],
      ["in_progress", "in_progress"],
      ["In Progress", "in_progress"],
      ["in-progress", "in_progress"],
      ["active", "in_progress"],
      ["pending", "pending"],
      ["todo", "pending"],
      [false, "pending"],
      [undefined, "pending"],
      [7, "pending"],
    ];
    expect(spelled.map(([v]) => planStatus(v))).toEqual(spelled.map(([, s]) => s) as never);
  });

  test("each step's words where its CLI keeps them, a completed flag, a known priority; steps without words are left out", () => {
    expect(
      todoPlan([
        { content: "Claude's", status: "in_progress", activeForm: "Doing it" },
        { text: "Codex's", completed: true },
        { description: "Gemini's", status: "pending" },
        { title: "Kimi's", status: "Done" },
        { content: "OpenCode's", status: "pending", priority: "HIGH" },
        "a bare string",
        { status: "pending" },
        { content: "  " },
        null,
      ]),
    ).toEqual([
      { content: "Claude's", status: "in_progress" },
      { content: "Codex's", status: "completed" },
      { content: "Gemini's", status: "pending" },
      { content: "Kimi's", status: "completed" },
      { content: "OpenCode's", status: "pending", priority: "high" },
      { content: "a bare string", status: "pending" },
    ]);
    expect(todoPlan("not a list")).toEqual([]);
  });
});

describe("a CLI's tool table", () => {
  const describe_ = toolTable({
    Read: { kind: "read", paths: ["file_path"] },
    Grep: { kind: "search", paths: ["path", "paths"] },
    TodoWrite: { kind: "think", plan: todosAt() },
  });

  test("kind and files by the CLI's own name (then any case); an unknown tool is other", () => {
    expect(describe_("Read", { file_path: "src/a.ts" })).toEqual({ kind: "read", paths: ["src/a.ts"] });
    expect(describe_("read", { file_path: "src/a.ts" })).toEqual({ kind: "read", paths: ["src/a.ts"] });
    expect(describe_("Grep", { pattern: "x" })).toEqual({ kind: "search" });
    expect(describe_("mcp__github__search", { path: "x" })).toEqual({ kind: "other" });
    expect(describe_("toString", {})).toEqual({ kind: "other" });
  });

  test("paths: a string or a list of strings, each once, in the order of the keys", () => {
    expect(pathsIn({ path: "a", paths: ["b", "a", 3, ""] }, ["path", "paths"])).toEqual(["a", "b"]);
    expect(pathsIn("not a record", ["path"])).toEqual([]);
  });

  test("a todo tool's call is followed by the plan it writes; an empty list empties the plan", () => {
    const input = { todos: [{ content: "one", status: "completed" }] };
    expect(toolCallEvents("c1", "TodoWrite", input, describe_("TodoWrite", input), "task-1")).toEqual([
      { type: "tool.call", id: "c1", name: "TodoWrite", input, kind: "think", parent: "task-1" },
      { type: "plan", entries: [{ content: "one", status: "completed" }], parent: "task-1" },
    ]);
    expect(describe_("TodoWrite", { todos: [] })).toEqual({ kind: "think", plan: [] });
    expect(describe_("TodoWrite", {})).toEqual({ kind: "think" });
  });
});
