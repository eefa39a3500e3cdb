import type { RunRequest } from "../contract/request.ts";
import { type RunSummary, requestSummary } from "../store/summary.ts";

/** A live run's summary before its first event: what it was asked, since now, as its request.json will say it. */
export function startSummary(runId: string, request: RunRequest, opts: { origin?: string; groupId?: string } = {}): RunSummary {
  const stored = { ...request, ...(opts.origin ? { origin: opts.origin } : {}), ...(opts.groupId ? { groupId: opts.groupId } : {}) };
  return { ...requestSummary(runId, stored as Record<string, unknown>), startedAt: Date.now() };
}

/**
 * Summaries of runs that are not live, which never change while this server
 * owns the log: each one is read (from its log's two ends) at most once, and
 * the most recently used `capacity` are kept.
 */
export class SummaryCache {
  private readonly map = new Map<string, RunSummary>();

  constructor(private readonly capacity = 1024) {}

  get(runId: string): RunSummary | undefined {
    const summary = this.map.get(runId);
    if (summary) {
      this.map.delete(runId);
      this.map.set(runId, summary);
    }
    return summary;
  }

  set(runId: string, summary: RunSummary): void {
    this.map.delete(runId);
    this.map.set(runId, summary);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value!);
  }
}
