import type { RunRequest } from "../core/contract/request.ts";
import { type RunSummary, requestSummary } from "../core/store/summary.ts";

export { noteEvent } from "../core/store/summary.ts";

/** A live run's summary before its first event: what it was asked, running since now. */
export function startSummary(runId: string, request: RunRequest): RunSummary {
  // As the log's request.json would say it (a compare run's member: its groupId too).
  return { ...requestSummary(runId, request as Record<string, unknown>), startedAt: Date.now() };
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
