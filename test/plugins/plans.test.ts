/**
 * An agent's plan as its own event, from the CLIs that stream a todo list: a todo tool's input
 * (Claude's TodoWrite, Gemini's write_todos, OpenCode's todowrite, Cursor's updateTodos), Codex's
 * todo_list item, Grok's plan record. The records are shaped as each CLI writes them.
 */
import { describe, expect, test } from "bun:test";
import { loadRegistry } from "../../src/builtins.ts";
import { driverFor } from "../../src/core/agents/driver-for.ts";
import type { OdEventBody } from "../../src/core/contract/events.ts";

const registry = await loadRegistry([]);

/** The events a built-in's driver makes of these records, in one run. */
async function events(adapterId: string, records: unknown[]): Promise<OdEventBody[]> {
  const adapter = registry.get(adapterId)!.adapter;
  const driver = driverFor(adapter);
  const { state } = driver.start({ agent: { name: adapter.name }, prompt: "x", cwd: "/w", mode: "edit" });
  const out: OdEventBody[] = [];
  for (const r of records) out.push(...(await driver.receive(driver.textLines ? JSON.stringify(r) : r, state, JSON.stringify(r))).events);
  return out;
}

const plans = (list: OdEventBody[]) => list.filter((e) => e.type === "plan");

const claudeTodo = (id: string, todos: unknown[], parent?: string) => ({
  type: "assistant",
  message: { id: `msg_${id}`, content: [{ type: "tool_use", id, name: "TodoWrite", input: { todos } }] },
  parent_tool_use_id: parent ?? null,
});

describe("a plan from the todo list a CLI streams", () => {
  test("Claude Code's TodoWrite: the call (think), then the plan; a sub-agent's plan under its Task", async () => {
    const todos = [
      { content: "Read the code", status: "completed", activeForm: "Reading the code" },
      { content: "Write the test", status: "in_progress", activeForm: "Writing the test" },
      { content: "Ship it", status: "pending", activeForm: "Shipping it" },
    ];
    const got = await events("claude", [claudeTodo("t1", todos), claudeTodo("t2", todos.slice(0, 1), "task-1")]);
    expect(got.map((e) => [e.type, e.type === "tool.call" ? e.kind : undefined, "parent" in e ? e.parent : undefined])).toEqual([
      ["tool.call", "think", undefined],
      ["plan", undefined, undefined],
      ["tool.call", "think", "task-1"],
      ["plan", undefined, "task-1"],
    ]);
    expect(plans(got)[0]).toEqual({
      type: "plan",
      entries: [
        { content: "Read the code", status: "completed" },
        { content: "Write the test", status: "in_progress" },
        { content: "Ship it", status: "pending" },
      ],
    });
  });

  test("Codex's todo_list item: the whole list on each update, shown when it changed", async () => {
    const item = (phase: string, done: boolean) => ({
      type: phase,
      item: {
        id: "item_3",
        type: "todo_list",
        items: [
          { text: "Read the code", completed: true },
          { text: "Fix it", completed: done },
        ],
      },
    });
    const got = await events("codex", [item("item.started", false), item("item.updated", false), item("item.completed", true)]);
    expect(got).toEqual([
      {
        type: "plan",
        entries: [
          { content: "Read the code", status: "completed" },
          { content: "Fix it", status: "pending" },
        ],
      },
      {
        type: "plan",
        entries: [
          { content: "Read the code", status: "completed" },
          { content: "Fix it", status: "completed" },
        ],
      },
    ]);
  });

  test("Gemini CLI's write_todos, OpenCode's todowrite (with priorities), Cursor's updateTodos", async () => {
    const gemini = await events("gemini", [
      {
        type: "tool_use",
        tool_name: "write_todos",
        tool_id: "w1",
        parameters: { todos: [{ description: "Look around", status: "in_progress" }] },
      },
    ]);
    expect(plans(gemini)).toEqual([{ type: "plan", entries: [{ content: "Look around", status: "in_progress" }] }]);
    const opencode = await events("opencode", [
      {
        type: "tool_use",
        sessionID: "ses_1",
        part: {
          type: "tool",
          tool: "todowrite",
          callID: "c1",
          state: {
            status: "completed",
            input: { todos: [{ id: "1", content: "Fix it", status: "pending", priority: "high" }] },
            output: "",
          },
        },
      },
    ]);
    expect(plans(opencode)).toEqual([{ type: "plan", entries: [{ content: "Fix it", status: "pending", priority: "high" }] }]);
    const cursor = await events("cursor-agent", [
      {
        type: "tool_call",
        subtype: "started",
        call_id: "c1",
        tool_call: { updateTodosToolCall: { args: { todos: [{ content: "Fix it", status: "TODO_STATUS_IN_PROGRESS" }] } } },
      },
    ]);
    expect(plans(cursor)).toEqual([{ type: "plan", entries: [{ content: "Fix it", status: "in_progress" }] }]);
  });

  test("Grok Build's plan record (ACP's entries), no longer a bare status", async () => {
    const got = await events("grok", [{ type: "plan", entries: [{ content: "Read the code", status: "pending", priority: "low" }] }]);
    expect(got).toEqual([{ type: "plan", entries: [{ content: "Read the code", status: "pending", priority: "low" }] }]);
  });
});
