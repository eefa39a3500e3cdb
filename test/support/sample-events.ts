/**
 * One body of every event type in the contract, for the tests that hold each surface (terminal, web
 * UI, ACP, MCP) to the whole contract: typed per type, so a type added to the contract without a
 * sample here fails to compile.
 */
import type { BodyOf, EventType, OdEvent } from "../../src/core/contract/events.ts";

export const SAMPLES: { [K in EventType]: BodyOf<K> } = {
  "run.started": { type: "run.started", agent: "claude", bin: "/usr/bin/claude", argv: ["-p"], cwd: "/work/project", mode: "edit" },
  session: { type: "session", sessionId: "s-1", model: "sonnet" },
  status: { type: "status", label: "retrying", detail: "attempt 2/5" },
  "text.delta": { type: "text.delta", id: "t1", text: "Hello" },
  "thinking.delta": { type: "thinking.delta", id: "k1", text: "hmm" },
  plan: {
    type: "plan",
    entries: [
      { content: "read the code", status: "completed" },
      { content: "write the test", status: "in_progress", priority: "high" },
      { content: "ship", status: "pending" },
    ],
  },
  "tool.call": { type: "tool.call", id: "c1", name: "Read", input: { file_path: "src/a.ts" }, kind: "read", paths: ["src/a.ts"] },
  "tool.result": { type: "tool.result", id: "c1", output: "boom", isError: true },
  "permission.request": { type: "permission.request", id: "p1", tool: "Bash", detail: '{"command":"rm -rf build"}' },
  "permission.decision": { type: "permission.decision", id: "p1", decision: "deny", by: "policy", reason: "edit mode runs no commands" },
  usage: { type: "usage", inputTokens: 10, outputTokens: 5, source: "turn" },
  raw: { type: "raw", stream: "stdout", line: "junk" },
  error: { type: "error", code: "AGENT_ERROR", message: "boom", retryable: false },
  "run.result": { type: "run.result", text: "Hello", toolCalls: [], files: ["a.txt"], rawTail: "", usage: { inputTokens: 10 } },
  "run.finished": {
    type: "run.finished",
    status: "succeeded",
    exitCode: 0,
    signal: null,
    durationMs: 1200,
    sessionId: "s-1",
    resumable: true,
  },
};

/** The sample of `type`, stamped as a stream carries it. */
export function sampleEvent(type: EventType, seq = 0): OdEvent {
  return { ...SAMPLES[type], runId: "r-1", seq, ts: 1_700_000_000_000 + seq } as OdEvent;
}
