import { describe, expect, test } from "bun:test";
import { absolutePath } from "../../src/acp/tool-call.ts";
import { newUpdateState, stopReasonOf, toUpdates } from "../../src/acp/updates.ts";
import type { OdEventBody } from "../../src/core/contract/events.ts";

const text = (t: string) => ({ type: "text", text: t });
const finished = (status: "succeeded" | "failed" | "cancelled"): OdEventBody => ({
  type: "run.finished",
  status,
  exitCode: status === "succeeded" ? 0 : 1,
  signal: null,
  durationMs: 5,
  resumable: false,
});

/** Each row: the events of one turn, in order, and every session/update they become. */
const TABLE: Array<[string, OdEventBody[], unknown[]]> = [
  ["text", [{ type: "text.delta", id: "t", text: "Hello" }], [{ sessionUpdate: "agent_message_chunk", content: text("Hello") }]],
  ["empty text is nothing", [{ type: "text.delta", id: "t", text: "" }], []],
  ["thinking", [{ type: "thinking.delta", id: "k", text: "hmm" }], [{ sessionUpdate: "agent_thought_chunk", content: text("hmm") }]],
  [
    "a sub-agent's text is thought, not the answer",
    [{ type: "text.delta", id: "t", text: "inner", parent: "task-1" }],
    [{ sessionUpdate: "agent_thought_chunk", content: text("inner") }],
  ],
  [
    "a tool call and its result",
    [
      { type: "tool.call", id: "c1", name: "Write", input: { file_path: "/w/a.txt", content: "x" }, kind: "edit", paths: ["/w/a.txt"] },
      { type: "tool.result", id: "c1", output: "written", isError: false },
    ],
    [
      {
        sessionUpdate: "tool_call",
        toolCallId: "c1",
        title: "Write: /w/a.txt",
        kind: "edit",
        status: "in_progress",
        rawInput: { file_path: "/w/a.txt", content: "x" },
        locations: [{ path: "/w/a.txt" }],
      },
      {
        sessionUpdate: "tool_call_update",
        toolCallId: "c1",
        status: "completed",
        content: [{ type: "content", content: text("written") }],
      },
    ],
  ],
  [
    "a failed command; the same call again is an update",
    [
      { type: "tool.call", id: "c2", name: "Bash", input: {}, kind: "execute" },
      { type: "tool.call", id: "c2", name: "Bash", input: { command: "rm -rf /" }, kind: "execute" },
      { type: "tool.result", id: "c2", output: "", isError: true },
    ],
    [
      { sessionUpdate: "tool_call", toolCallId: "c2", title: "Bash", kind: "execute", status: "in_progress", rawInput: {}, locations: [] },
      { sessionUpdate: "tool_call_update", toolCallId: "c2", title: "Bash: rm -rf /", kind: "execute", rawInput: { command: "rm -rf /" } },
      { sessionUpdate: "tool_call_update", toolCallId: "c2", status: "failed", content: [] },
    ],
  ],
  [
    "a call whose input is not an object: rawInput is one anyway (ACP SDKs before 0.5 refuse anything else)",
    [{ type: "tool.call", id: "c4", name: "shell", input: "ls -la", kind: "execute" }],
    [
      {
        sessionUpdate: "tool_call",
        toolCallId: "c4",
        title: "shell",
        kind: "execute",
        status: "in_progress",
        rawInput: { value: "ls -la" },
        locations: [],
      },
    ],
  ],
  [
    "a result whose call was never shown opens it first",
    [{ type: "tool.result", id: "c3", output: "ok", isError: false }],
    [
      { sessionUpdate: "tool_call", toolCallId: "c3", title: "tool", kind: "other", status: "in_progress" },
      { sessionUpdate: "tool_call_update", toolCallId: "c3", status: "completed", content: [{ type: "content", content: text("ok") }] },
    ],
  ],
  [
    "the kind and files are the event's; a relative path is resolved against the run's folder",
    [
      { type: "run.started", agent: "x", bin: "x", argv: [], cwd: "/work/project", mode: "edit" },
      { type: "tool.call", id: "c4", name: "Grep", input: { pattern: "TODO" }, kind: "search", paths: ["src", "/etc/hosts", "./src"] },
    ],
    [
      {
        sessionUpdate: "tool_call",
        toolCallId: "c4",
        title: "Grep: src",
        kind: "search",
        status: "in_progress",
        rawInput: { pattern: "TODO" },
        locations: [{ path: "/work/project/src" }, { path: "/etc/hosts" }],
      },
    ],
  ],
  [
    "a call that says no kind is other: nothing is guessed from its name",
    [{ type: "tool.call", id: "c5", name: "Read", input: { file_path: "/w/a.txt" } }],
    [
      {
        sessionUpdate: "tool_call",
        toolCallId: "c5",
        title: "Read: /w/a.txt",
        kind: "other",
        status: "in_progress",
        rawInput: { file_path: "/w/a.txt" },
        locations: [],
      },
    ],
  ],
  [
    "a plan, as it is (a priority where the agent gave none: medium)",
    [
      {
        type: "plan",
        entries: [
          { content: "read the code", status: "completed", priority: "high" },
          { content: "write the test", status: "in_progress" },
        ],
      },
    ],
    [
      {
        sessionUpdate: "plan",
        entries: [
          { content: "read the code", priority: "high", status: "completed" },
          { content: "write the test", priority: "medium", status: "in_progress" },
        ],
      },
    ],
  ],
  ["an empty plan empties the client's", [{ type: "plan", entries: [] }], [{ sessionUpdate: "plan", entries: [] }]],
  ["a status is a note, never parsed back into a plan", [{ type: "status", label: "plan", detail: "[x] read the code" }], []],
  [
    "what is not the client's to show",
    [
      { type: "status", label: "retrying", detail: "429" },
      { type: "usage", inputTokens: 3, source: "turn" },
      { type: "raw", stream: "stdout", line: "junk" },
      { type: "session", sessionId: "s-1" },
      { type: "permission.request", id: "p", tool: "Write" },
      { type: "permission.decision", id: "p", decision: "allow", by: "user" },
      { type: "error", code: "AGENT_ERROR", message: "boom", retryable: false },
      finished("succeeded"),
    ],
    [],
  ],
];

describe("od events as ACP session/update", () => {
  for (const [name, events, updates] of TABLE)
    test(name, () => {
      const state = newUpdateState();
      expect(events.flatMap((e) => toUpdates(e, state))).toEqual(updates as never);
    });

  test("a path made absolute against the run's folder, in the folder's own style", () => {
    expect(absolutePath("src/a.ts", "/work/p/")).toBe("/work/p/src/a.ts");
    expect(absolutePath("./a.ts", "/work/p")).toBe("/work/p/a.ts");
    expect(absolutePath(".", "/work/p")).toBe("/work/p");
    expect(absolutePath("/etc/hosts", "/work/p")).toBe("/etc/hosts");
    expect(absolutePath("src\\a.ts", "C:\\work\\p")).toBe("C:\\work\\p\\src\\a.ts");
    expect(absolutePath("D:\\x", "C:\\work")).toBe("D:\\x");
    expect(absolutePath("a.ts", undefined)).toBe("a.ts");
  });
});

describe("stop reasons", () => {
  const cases: Array<[string, OdEventBody[], string | undefined]> = [
    ["done", [finished("succeeded")], "end_turn"],
    ["cancelled", [finished("cancelled")], "cancelled"],
    ["cut off", [{ type: "status", label: "stopped: max_tokens" }, finished("succeeded")], "max_tokens"],
    [
      "od's loop cut off",
      [{ type: "status", label: "api", detail: "the answer was cut off at the output limit" }, finished("succeeded")],
      "max_tokens",
    ],
    ["turn limit", [{ type: "status", label: "stopped: max_turn_requests" }, finished("succeeded")], "max_turn_requests"],
    [
      "refused",
      [{ type: "error", code: "AGENT_ERROR", message: "Gemini CLI refused the prompt", retryable: false }, finished("failed")],
      "refusal",
    ],
    [
      "failed: an error, not a stop reason",
      [{ type: "error", code: "AGENT_CRASHED", message: "x", retryable: false }, finished("failed")],
      undefined,
    ],
  ];
  for (const [name, events, reason] of cases) test(name, () => expect(stopReasonOf(events)).toBe(reason as never));
});
