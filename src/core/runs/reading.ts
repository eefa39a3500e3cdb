import type { LogWriter } from "../store/log-writer.ts";
import { processAlive, type RunSummary } from "../store/summary.ts";
import { SummaryCache } from "./summaries.ts";
import { notFound, type Reading, type RunsCore as Runs } from "./types.ts";

/** Runs whose last events only memory holds (their log could not take them), kept for their readers; the newest this many. */
const ENDED_IN_MEMORY = 64;

export function readRun(runs: Runs): Reading {
  const ended = new Map<string, LogWriter>();
  const summaries = new SummaryCache();
  const { log } = runs.deps;
  return {
    read(runId, cursor, maxBytes) {
      const run = runs.live.get(runId);
      if (run?.log) return { ...run.log.read(cursor, maxBytes), live: true };
      if (run) return { events: [], cursor, live: true }; // live, and nothing recorded yet
      const kept = ended.get(runId);
      if (kept) return { ...kept.read(cursor, maxBytes), live: false };
      if (!log.has(runId)) throw notFound(runId);
      return { ...log.readAfter(runId, cursor, maxBytes), live: false };
    },

    /**
     * A run's summary: a live run's from memory; another's from its log's two ends once, then from a
     * cache. One that ended without its run.finished is `interrupted` once no od drives it.
     */
    summary(runId) {
      const run = runs.live.get(runId);
      if (run) return { ...run.summary };
      const known = summaries.get(runId);
      if (known) return known;
      if (!log.has(runId)) throw notFound(runId);
      const summary = settled(log.summary(runId), log.request(runId)?.pid);
      if (summary.status !== "running" && summary.status !== "queued") summaries.set(runId, summary);
      return summary;
    },

    ended(run) {
      summaries.set(run.runId, { ...run.summary });
      if (!run.log?.failed) return;
      ended.set(run.runId, run.log);
      if (ended.size > ENDED_IN_MEMORY) ended.delete(ended.keys().next().value!);
    },
  };
}

/** A record without its run.finished whose od is gone (killed, the machine off): interrupted, not running. */
export function settled(summary: RunSummary, pid: unknown): RunSummary {
  const open = summary.status === "running" || summary.status === "queued";
  const gone = typeof pid !== "number" || (pid !== process.pid && !processAlive(pid));
  return open && gone ? { ...summary, status: "interrupted" } : summary;
}
