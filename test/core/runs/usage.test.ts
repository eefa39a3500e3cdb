/** Usage per day per agent (GET /api/usage, the web UI's Usage view): from fixture tables of run summaries, and from a run log. */
import { describe, expect, test } from "bun:test";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dayOf, runsSince, usageReport } from "../../../src/core/runs/usage.ts";
import { RunLog } from "../../../src/core/store/run-log.ts";
import type { RunSummary } from "../../../src/core/store/summary.ts";
import { tmpdir } from "../../helpers.ts";
import { recordRuns } from "../../support/usage-runs.ts";

const NOW = Date.parse("2026-03-10T15:00:00Z");
const H = 3_600_000;

let ids = 0;
function run(agent: string | undefined, at: string, extra: Partial<RunSummary> = {}): RunSummary {
  return { runId: `r${++ids}`, agent, status: "succeeded", startedAt: Date.parse(at), ...extra };
}

describe("usageReport", () => {
  test("no runs: every day of the window, empty, and zero totals", () => {
    const r = usageReport([], { days: 3, now: NOW, tzOffsetMinutes: 0 });
    expect(r.daily.map((d) => d.day)).toEqual(["2026-03-08", "2026-03-09", "2026-03-10"]);
    expect(r.daily.every((d) => Object.keys(d.agents).length === 0)).toBe(true);
    expect(r.since).toBe(Date.parse("2026-03-08T00:00:00Z"));
    expect(r.until).toBe(NOW);
    expect(r).toMatchObject({ agents: [], byAgent: {}, recent: [], total: { runs: 0, inputTokens: 0, costUsd: 0, priced: 0 } });
  });

  test("per day per agent: tokens, cost, runs and run times summed; agents the most tokens first", () => {
    const runs = [
      run("codex", "2026-03-09T10:00:00Z", { durationMs: 60_000, usage: { inputTokens: 100, outputTokens: 50 } }),
      run("claude", "2026-03-09T11:00:00Z", { durationMs: 30_000, usage: { inputTokens: 1000, outputTokens: 200, costUsd: 0.25 } }),
      run("claude", "2026-03-09T12:00:00Z", { durationMs: 90_000, usage: { inputTokens: 500, outputTokens: 100, costUsd: 0.5 } }),
      run("claude", "2026-03-10T09:00:00Z", { durationMs: 10_000, status: "failed" }),
    ];
    const r = usageReport(runs, { days: 2, now: NOW, tzOffsetMinutes: 0 });
    expect(r.agents).toEqual(["claude", "codex"]);
    expect(r.daily[0]!.agents).toEqual({
      claude: {
        runs: 2,
        inputTokens: 1500,
        outputTokens: 300,
        costUsd: 0.75,
        priced: 2,
        durationMs: 120_000,
        durationsMs: [30_000, 90_000],
      },
      codex: { runs: 1, inputTokens: 100, outputTokens: 50, costUsd: 0, priced: 0, durationMs: 60_000, durationsMs: [60_000] },
    });
    expect(r.daily[1]!.agents.claude).toMatchObject({ runs: 1, inputTokens: 0, durationsMs: [10_000] });
    expect(r.byAgent.claude).toEqual({ runs: 3, inputTokens: 1500, outputTokens: 300, costUsd: 0.75, priced: 2, durationMs: 130_000 });
    expect(r.total).toEqual({ runs: 4, inputTokens: 1600, outputTokens: 350, costUsd: 0.75, priced: 2, durationMs: 190_000 });
  });

  // [what, run start, tz offset (getTimezoneOffset minutes), the day it counts on, or undefined: outside the 2-day window]
  const days: Array<[string, string, number, string | undefined]> = [
    ["UTC: its own day", "2026-03-09T23:30:00Z", 0, "2026-03-09"],
    ["UTC+2: late evening UTC is the next local day", "2026-03-09T23:30:00Z", -120, "2026-03-10"],
    ["UTC-5: early morning UTC is the local day before", "2026-03-10T03:00:00Z", 300, "2026-03-09"],
    ["the window's first millisecond counts", "2026-03-09T00:00:00Z", 0, "2026-03-09"],
    ["a millisecond before it does not", "2026-03-08T23:59:59.999Z", 0, undefined],
    ["UTC+2: the window starts at local midnight", "2026-03-08T22:30:00Z", -120, "2026-03-09"],
    ["a clock ahead: after today is outside", "2026-03-11T01:00:00Z", 0, undefined],
  ];
  for (const [what, at, tz, day] of days)
    test(`the day a run counts on: ${what}`, () => {
      const r = usageReport([run("pi", at, { durationMs: 1 })], { days: 2, now: NOW, tzOffsetMinutes: tz });
      const found = r.daily.filter((d) => d.agents.pi).map((d) => d.day);
      expect(found).toEqual(day ? [day] : []);
      expect(r.total.runs).toBe(day ? 1 : 0);
      if (day) expect(dayOf(Date.parse(at), tz)).toBe(day);
    });

  test("a run without an agent counts as unknown; one still going counts as a run with no time", () => {
    const r = usageReport(
      [run(undefined, "2026-03-10T10:00:00Z", { durationMs: 5 }), run("pi", "2026-03-10T11:00:00Z", { status: "running" })],
      {
        days: 1,
        now: NOW,
        tzOffsetMinutes: 0,
      },
    );
    expect(r.agents).toEqual(["pi", "unknown"]);
    expect(r.daily[0]!.agents.pi).toMatchObject({ runs: 1, durationMs: 0, durationsMs: [] });
    expect(r.recent.map((x) => x.agent)).toEqual(["unknown"]);
  });

  test("recent: the latest runs that ended, oldest first, at most as many as asked, with their tokens", () => {
    const runs = [0, 1, 2, 3, 4].map((i) =>
      run("pi", new Date(NOW - (5 - i) * H).toISOString(), { durationMs: 1000 * (i + 1), usage: { inputTokens: i, outputTokens: 10 } }),
    );
    const r = usageReport([...runs].reverse(), { days: 1, now: NOW, tzOffsetMinutes: 0, recent: 3 });
    expect(r.recent.map((x) => [x.durationMs, x.tokens])).toEqual([
      [3000, 12],
      [4000, 13],
      [5000, 14],
    ]);
    expect(r.recent[2]).toMatchObject({ runId: runs[4]!.runId, agent: "pi", status: "succeeded", startedAt: runs[4]!.startedAt });
  });
});

describe("runsSince", () => {
  test("reads the runs whose folder changed within a day of the window, never a compare run's group folder", async () => {
    await using tmp = tmpdir();
    const log = new RunLog(tmp.path);
    const [fresh, old] = recordRuns(log, [
      { agent: "pi", startedAt: NOW - H, durationMs: 10, inputTokens: 3 },
      { agent: "pi", startedAt: NOW - 10 * 24 * H, durationMs: 10 },
    ]);
    const oldTime = new Date(NOW - 10 * 24 * H);
    utimesSync(join(tmp.path, old!), oldTime, oldTime);
    mkdirSync(join(tmp.path, "group-1"));
    writeFileSync(join(tmp.path, "group-1", "group.json"), "{}");
    const asked: string[] = [];
    const found = runsSince(log, NOW - 2 * 24 * H, (id) => {
      asked.push(id);
      return log.summary(id);
    });
    expect(asked).toEqual([fresh!]);
    expect(found.map((s) => [s.runId, s.agent, s.startedAt, s.usage?.inputTokens])).toEqual([[fresh, "pi", NOW - H, 3]]);
  });
});
