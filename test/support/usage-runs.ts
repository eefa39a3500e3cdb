/** A run log with past runs in it, as ods wrote them (request.json, then events with their times): for usage reports. */
import { createStamper } from "../../src/core/contract/events.ts";
import type { RunLog } from "../../src/core/store/run-log.ts";

export interface PastRun {
  agent: string;
  startedAt: number;
  /** Absent: a run still going (no run.result, no run.finished yet). */
  durationMs?: number;
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number;
  status?: "succeeded" | "failed" | "cancelled";
}

/** Records each run in `log` under a fresh id; the ids, in the order given. */
export function recordRuns(log: RunLog, runs: PastRun[]): string[] {
  return runs.map((run) => {
    const runId = crypto.randomUUID();
    let now = run.startedAt;
    const stamp = createStamper(runId, 0, () => now);
    const writer = log.open(runId, { agent: run.agent, prompt: `a task for ${run.agent}`, cwd: "/w" });
    writer.append(stamp({ type: "run.started", agent: run.agent, bin: run.agent, argv: [], cwd: "/w", mode: "edit" }));
    if (run.durationMs !== undefined) {
      now = run.startedAt + run.durationMs;
      const usage = JSON.parse(JSON.stringify({ inputTokens: run.inputTokens, outputTokens: run.outputTokens, costUsd: run.costUsd }));
      writer.append(stamp({ type: "run.result", text: "done", toolCalls: [], files: [], rawTail: "", usage }));
      const status = run.status ?? "succeeded";
      writer.append(
        stamp({
          type: "run.finished",
          status,
          exitCode: status === "succeeded" ? 0 : 1,
          signal: null,
          durationMs: run.durationMs,
          resumable: false,
        }),
      );
    }
    writer.close();
    return runId;
  });
}
