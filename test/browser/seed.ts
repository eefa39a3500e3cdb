/**
 * Past runs written straight into a home's run log, as od records them (request.json, then
 * run.started, the answer, run.result with the usage, run.finished), at chosen times: a history of
 * many runs over many days, for the history's pages and the usage view, in no time.
 */
import { utimesSync } from "node:fs";
import { join } from "node:path";
import { OdEvent } from "../../src/core/contract/events.ts";
import { RunLog } from "../../src/core/store/run-log.ts";

export interface Seed {
  agent: string;
  prompt: string;
  cwd: string;
  startedAt: number;
  durationMs: number;
  status: "succeeded" | "failed" | "cancelled";
  usage?: { inputTokens?: number; outputTokens?: number; costUsd?: number };
}

/** Records `seeds` in `<home>/runs`; returns their run ids, in order. */
export function seedRuns(home: string, seeds: Seed[]): string[] {
  const log = new RunLog(join(home, "runs"));
  return seeds.map((s) => {
    const runId = crypto.randomUUID();
    log.create(runId, { agent: s.agent, prompt: s.prompt, cwd: s.cwd, mode: "edit", origin: "serve" });
    const at = (seq: number, ts: number) => ({ runId, seq, ts });
    const end = s.startedAt + s.durationMs;
    const events = [
      { type: "run.started", ...at(0, s.startedAt), agent: s.agent, bin: s.agent, argv: [], cwd: s.cwd, mode: "edit" },
      { type: "text.delta", ...at(1, s.startedAt + 1), id: "t", text: `Answer to ${s.prompt}` },
      { type: "run.result", ...at(2, end), text: `Answer to ${s.prompt}`, toolCalls: [], files: [], rawTail: "", usage: s.usage },
      {
        type: "run.finished",
        ...at(3, end),
        status: s.status,
        exitCode: s.status === "failed" ? 1 : 0,
        signal: null,
        durationMs: s.durationMs,
        resumable: false,
      },
    ];
    for (const e of events) log.append(OdEvent.parse(JSON.parse(JSON.stringify(e))));
    const t = new Date(end);
    utimesSync(join(log.dir, runId), t, t);
    return runId;
  });
}

const DAY = 24 * 60 * 60 * 1000;

/** `n` runs over the last `days` days, newest last: agents in turn, some failed or cancelled, some about the README. */
export function manyRuns(n: number, cwd: string, days = 10, agents = ["fake", "claude", "codex"]): Seed[] {
  const now = Date.now();
  return Array.from({ length: n }, (_, i) => ({
    agent: agents[i % agents.length]!,
    prompt: i % 7 === 4 ? `task ${i}: fix the README` : `task ${i}`,
    cwd,
    startedAt: now - DAY * days + Math.floor(((DAY * days - 60_000) * i) / n),
    durationMs: 2_000 + ((i * 7919) % 90_000),
    status: i % 10 === 3 ? "failed" : i % 13 === 6 ? "cancelled" : "succeeded",
    usage: {
      inputTokens: 1_000 + i * 150,
      outputTokens: 200 + i * 20,
      costUsd: (agents[i % agents.length] === "fake" ? 0 : 0.01 * (i + 1)) || undefined,
    },
  }));
}
