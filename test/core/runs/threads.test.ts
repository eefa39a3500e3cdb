/** Conversations: a run and the runs that continued its session are one record of the history. */
import { describe, expect, test } from "bun:test";
import { threads } from "../../../src/core/runs/threads.ts";
import type { RunSummary } from "../../../src/core/store/summary.ts";

const run = (runId: string, startedAt: number, over: Partial<RunSummary> = {}): RunSummary => ({
  runId,
  agent: "claude",
  status: "succeeded",
  startedAt,
  ...over,
});

describe("threads", () => {
  test("a run whose request resumed an earlier run's session follows it; a chain folds into one record, its turns oldest first", () => {
    const folded = threads([
      run("c", 3, { resume: "s2", sessionId: "s3", prompt: "and then?", usage: { inputTokens: 5 }, durationMs: 30, status: "failed" }),
      run("a", 1, { sessionId: "s1", prompt: "hello", usage: { inputTokens: 1 }, durationMs: 10 }),
      run("b", 2, { resume: "s1", sessionId: "s2", prompt: "more", usage: { inputTokens: 2 }, durationMs: 20, resumable: true }),
      run("solo", 4, { sessionId: "s9" }),
    ]);
    expect(folded).toHaveLength(2);
    expect(folded[0]).toMatchObject({
      kind: "thread",
      threadId: "a",
      prompt: "hello",
      startedAt: 1,
      status: "failed",
      sessionId: "s3",
      durationMs: 60,
      usage: { inputTokens: 8 },
    });
    const thread = folded[0]!;
    expect("turns" in thread && thread.turns.map((t) => t.runId)).toEqual(["a", "b", "c"]);
    expect(folded[1]).toMatchObject({ runId: "solo" });
  });

  test("the same session id from another agent, or a resume of a session no run reported, starts nothing", () => {
    const folded = threads([
      run("a", 1, { sessionId: "s1" }),
      run("b", 2, { agent: "codex", resume: "s1" }),
      run("c", 3, { resume: "zz" }),
    ]);
    expect(folded.map((r) => ("runId" in r ? r.runId : r.threadId))).toEqual(["a", "b", "c"]);
  });
});
