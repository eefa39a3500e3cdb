import type { RunRequest } from "../core/contract/request.ts";
import type { LogWriter } from "../core/store/log-writer.ts";
import type { RunSummary } from "../core/store/run-log.ts";

/** A run the server serves while it runs: its own (`RunStore.start`) or a compare run's member. */
export interface LiveRun {
  runId: string;
  request: RunRequest;
  /** The log is the one copy of the events, read by every client from the file or its unwritten tail. */
  log: LogWriter;
  /** Readers to tell of each event. */
  watchers: Set<() => void>;
  finished: boolean;
  controller: AbortController;
  done: Promise<void>;
  /** Kept as events pass: what GET /api/runs/:id answers, without reading the log. */
  summary: RunSummary;
  /** The last seq logged (-1 before the first). */
  seq: number;
}

/** Tells a run's readers that it logged an event or ended. */
export function wake(run: LiveRun): void {
  for (const onChange of run.watchers) onChange();
}
