import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import type { RunLog } from "../store/run-log.ts";
import type { RunSummary } from "../store/summary.ts";

/**
 * What the runs of the last days used, for a picture (the web UI's Usage view, `GET /api/usage`):
 * tokens, cost and runs per day per agent, each day's run times, totals per agent, and the most
 * recent runs' times. Every run counts once, whatever record the history folds it into (a compare
 * run's member, a conversation's turn): it is its own folder of the run log.
 */

/** Figures summed over runs. `priced`: how many of them reported a cost (most agents report tokens only). */
export interface UsageFigures {
  runs: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  priced: number;
  /** Their times summed: runs still going (no time yet) add nothing. */
  durationMs: number;
}

export interface UsageDay {
  /** The local day, `YYYY-MM-DD`, and its first millisecond (epoch ms). */
  day: string;
  start: number;
  /** Agents that ran that day, each with its figures and its runs' times in the order they started. */
  agents: Record<string, UsageFigures & { durationsMs: number[] }>;
}

export interface UsageRun {
  runId: string;
  agent: string;
  startedAt: number;
  durationMs: number;
  status: RunSummary["status"];
  tokens: number;
}

export interface UsageReport {
  days: number;
  /** The window: from the start of the first day to `until` (when it was computed); epoch ms. */
  since: number;
  until: number;
  /** The days' offset from UTC, in minutes as `Date#getTimezoneOffset` gives it (UTC+2 is -120). */
  tzOffsetMinutes: number;
  /** Every agent that ran in the window, the most tokens first. */
  agents: string[];
  total: UsageFigures;
  byAgent: Record<string, UsageFigures>;
  /** Every day of the window, oldest first, the days without runs included. */
  daily: UsageDay[];
  /** The latest runs that ended (a time to show), oldest first: at most `recent` of them. */
  recent: UsageRun[];
}

export interface UsageOptions {
  days: number;
  now: number;
  tzOffsetMinutes: number;
  /** How many of the latest runs `recent` keeps (default 40). */
  recent?: number;
}

const DAY = 86_400_000;

/** The local day of `ms` (`YYYY-MM-DD`) for a UTC offset as `getTimezoneOffset` gives it. */
export function dayOf(ms: number, tzOffsetMinutes: number): string {
  return new Date(ms - tzOffsetMinutes * 60_000).toISOString().slice(0, 10);
}

/** The first millisecond of a local day. */
function startOf(day: string, tzOffsetMinutes: number): number {
  return Date.parse(`${day}T00:00:00Z`) + tzOffsetMinutes * 60_000;
}

const zero = (): UsageFigures => ({ runs: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, priced: 0, durationMs: 0 });

function add(into: UsageFigures, run: RunSummary): void {
  into.runs++;
  into.inputTokens += run.usage?.inputTokens ?? 0;
  into.outputTokens += run.usage?.outputTokens ?? 0;
  if (run.usage?.costUsd !== undefined) {
    // Rounded to a millionth of a dollar: sums of floats would print 0.41000000000000003.
    into.costUsd = Math.round((into.costUsd + run.usage.costUsd) * 1e6) / 1e6;
    into.priced++;
  }
  into.durationMs += run.durationMs ?? 0;
}

const tokensOf = (f: { inputTokens?: number; outputTokens?: number } | undefined) => (f?.inputTokens ?? 0) + (f?.outputTokens ?? 0);

/** The first millisecond of the window: the start of the local day `days - 1` days before `now`'s. */
export function windowStart({ days, now, tzOffsetMinutes }: UsageOptions): number {
  return startOf(dayOf(now, tzOffsetMinutes), tzOffsetMinutes) - (days - 1) * DAY;
}

/** The report of `runs` (in any order) over the `days` local days up to `now`'s. Pure: the same runs, the same report. */
export function usageReport(runs: RunSummary[], opts: UsageOptions): UsageReport {
  const { days, now, tzOffsetMinutes } = opts;
  const since = windowStart(opts);
  const daily: UsageDay[] = Array.from({ length: days }, (_, i) => {
    const start = since + i * DAY;
    return { day: dayOf(start, tzOffsetMinutes), start, agents: {} };
  });
  const byDay = new Map(daily.map((d) => [d.day, d]));
  const inWindow = runs.filter((r) => r.startedAt >= since && byDay.has(dayOf(r.startedAt, tzOffsetMinutes)));
  inWindow.sort((a, b) => a.startedAt - b.startedAt || a.runId.localeCompare(b.runId));
  const total = zero();
  const byAgent: Record<string, UsageFigures> = {};
  for (const run of inWindow) {
    const agent = run.agent ?? "unknown";
    const cell = (byDay.get(dayOf(run.startedAt, tzOffsetMinutes))!.agents[agent] ??= { ...zero(), durationsMs: [] });
    add(cell, run);
    if (run.durationMs !== undefined) cell.durationsMs.push(run.durationMs);
    add((byAgent[agent] ??= zero()), run);
    add(total, run);
  }
  const agents = Object.keys(byAgent).sort((a, b) => tokensOf(byAgent[b]) - tokensOf(byAgent[a]) || a.localeCompare(b));
  const recent = inWindow
    .filter((r) => r.durationMs !== undefined)
    .slice(-(opts.recent ?? 40))
    .map((r) => ({
      runId: r.runId,
      agent: r.agent ?? "unknown",
      startedAt: r.startedAt,
      durationMs: r.durationMs!,
      status: r.status,
      tokens: tokensOf(r.usage),
    }));
  return { days, since, until: now, tzOffsetMinutes, agents, total, byAgent, daily, recent };
}

/** At most this many runs are read for a report: a log kept for years is not read whole. */
export const USAGE_MAX_RUNS = 5000;

/**
 * The summaries of the runs that may have started at or after `since`: a run's folder is made as it
 * starts, so one last changed before (a day's slack for clocks) started before. Group folders (a
 * compare run's group.json) are no runs; their members are. `summary` answers for a run (live ones from memory).
 */
export function runsSince(log: RunLog, since: number, summary: (runId: string) => RunSummary | undefined): RunSummary[] {
  const recent = (name: string) => {
    try {
      return !existsSync(join(log.dir, name, "group.json")) && statSync(join(log.dir, name)).mtimeMs >= since - DAY;
    } catch {
      return false; // gone meanwhile
    }
  };
  return log.entries(USAGE_MAX_RUNS, recent).flatMap((id) => summary(id) ?? []);
}
