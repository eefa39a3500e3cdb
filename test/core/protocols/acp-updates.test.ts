/** session/update records, one at a time, as the ACP driver reads them: a tool call's kind and files, and a plan. */
import { describe, expect, test } from "bun:test";
import { acpToolKind } from "../../../src/core/protocols/acp-tools.ts";
import { sessionUpdate, type UpdateState } from "../../../src/core/protocols/acp-updates.ts";

const fresh = (): UpdateState => ({ part: 0, tools: new Map() });
const events = (...updates: unknown[]) => {
  const state = fresh();
  return updates.flatMap((u) => sessionUpdate(u, state, JSON.stringify(u)));
};

describe("ACP tool calls: the kind and the files the agent says", () => {
  const TABLE: Array<[string, unknown[], unknown[]]> = [
    [
      "kind and locations as the agent gives them",
      [
        {
          sessionUpdate: "tool_call",
          toolCallId: "t1",
          title: "Read src/a.ts",
          kind: "read",
          rawInput: { path: "src/a.ts" },
          locations: [{ path: "/w/src/a.ts", line: 3 }],
        },
      ],
      [{ type: "tool.call", id: "t1", name: "Read src/a.ts", input: { path: "src/a.ts" }, kind: "read", paths: ["/w/src/a.ts"] }],
    ],
    [
      "a kind that comes with a later update, and a diff's file",
      [
        { sessionUpdate: "tool_call", toolCallId: "t2", title: "Preparing…", rawInput: {} },
        {
          sessionUpdate: "tool_call_update",
          toolCallId: "t2",
          title: "Write a.txt",
          kind: "edit",
          rawInput: { file_path: "/w/a.txt" },
          content: [{ type: "diff", path: "/w/a.txt", oldText: null, newText: "x" }],
        },
      ],
      [{ type: "tool.call", id: "t2", name: "Write a.txt", input: { file_path: "/w/a.txt" }, kind: "edit", paths: ["/w/a.txt"] }],
    ],
    [
      "no kind: other, ACP's own default (nothing guessed from the title)",
      [{ sessionUpdate: "tool_call", toolCallId: "t3", title: "Bash", rawInput: { command: "ls" } }],
      [{ type: "tool.call", id: "t3", name: "Bash", input: { command: "ls" }, kind: "other" }],
    ],
  ];
  for (const [name, updates, expected] of TABLE) test(name, () => expect(events(...updates)).toEqual(expected as never));

  test("ACP's kinds as od's: delete and move are edits; switch_mode, none, or an unknown one is other", () => {
    const kinds = ["read", "edit", "delete", "move", "search", "execute", "think", "fetch", "switch_mode", "other", undefined, 7, "frob"];
    expect(kinds.map(acpToolKind)).toEqual([
      "read",
      "edit",
      "edit",
      "edit",
      "search",
      "execute",
      "think",
      "fetch",
      "other",
      "other",
      "other",
      "other",
      "other",
    ]);
  });
});

describe("an ACP plan is od's plan event", () => {
  test("every entry with its status and priority, the whole plan each time", () => {
    const plan = {
      sessionUpdate: "plan",
      entries: [
        { content: "read the code", priority: "high", status: "completed" },
        { content: "write the test", priority: "medium", status: "in_progress" },
        { content: "ship", priority: "low", status: "pending" },
      ],
    };
    expect(events(plan)).toEqual([
      {
        type: "plan",
        entries: [
          { content: "read the code", status: "completed", priority: "high" },
          { content: "write the test", status: "in_progress", priority: "medium" },
          { content: "ship", status: "pending", priority: "low" },
        ],
      },
    ]);
  });

  test("an empty plan (the agent cleared it) is an empty plan; malformed entries are left out", () => {
    expect(events({ sessionUpdate: "plan", entries: [] })).toEqual([{ type: "plan", entries: [] }]);
    expect(events({ sessionUpdate: "plan", entries: [null, 3, { status: "pending" }, { content: "ok", status: "weird" }] })).toEqual([
      { type: "plan", entries: [{ content: "ok", status: "pending" }] },
    ]);
  });
});

describe("usage an agent puts on an update (_meta.usage)", () => {
  const meta = { _meta: { usage: { inputTokens: 7, outputTokens: 2, thoughtTokens: 1 } } };
  const usage = { type: "usage", inputTokens: 7, outputTokens: 2, reasoningTokens: 1, source: "turn" };

  test("on a text chunk and on an update od drops: a usage event", () => {
    expect(events({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" }, ...meta })).toMatchObject([
      { type: "text.delta", text: "hi" },
      usage,
    ]);
    expect(events({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "" }, ...meta })).toMatchObject([usage]);
    expect(events({ sessionUpdate: "usage_update", ...meta })).toMatchObject([usage]);
  });

  test("on a tool update, a plan or a mode change: not read (only the update's own events)", () => {
    expect(
      events({ sessionUpdate: "tool_call", toolCallId: "t1", title: "ls", kind: "execute", rawInput: { c: "ls" }, ...meta }),
    ).toMatchObject([{ type: "tool.call", id: "t1" }]);
    expect(events({ sessionUpdate: "plan", entries: [], ...meta })).toEqual([{ type: "plan", entries: [] }]);
    expect(events({ sessionUpdate: "current_mode_update", currentModeId: "plan", ...meta })).toEqual([
      { type: "status", label: "mode", detail: "plan" },
    ]);
  });
});

describe("a finished ACP tool call", () => {
  test("keeps none of what it carried (a session's calls would otherwise hold every output till the run ends), and later updates add nothing", () => {
    const state = fresh();
    const big = "x".repeat(100_000);
    const run = (u: unknown) => sessionUpdate(u, state, JSON.stringify(u));
    run({ sessionUpdate: "tool_call", toolCallId: "t1", title: "Read a", kind: "read", rawInput: { path: "a" } });
    const done = run({
      sessionUpdate: "tool_call_update",
      toolCallId: "t1",
      status: "completed",
      content: [{ type: "content", content: { type: "text", text: big } }],
      rawOutput: { text: big },
    });
    expect(done).toEqual([{ type: "tool.result", id: "t1", output: big, isError: false }]);
    const tool = state.tools.get("t1")!;
    expect([tool.input, tool.content, tool.rawOutput, tool.called, tool.done]).toEqual([undefined, undefined, undefined, true, true]);
    expect(run({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed", content: [] })).toEqual([]);
  });
});
