import { loadSkills } from "../builtins.ts";
import type { Registry } from "../core/agents/registry.ts";
import { OdError } from "../core/errors.ts";
import type { Broker, Decision } from "../core/run/permissions.ts";
import { createRun } from "../core/run/pipeline.ts";
import type { RunRequest } from "../core/run/request.ts";
import type { Slots } from "../core/run/slots.ts";
import type { LogBatch, LogCursor } from "../core/store/log-read.ts";
import type { LogWriter } from "../core/store/log-writer.ts";
import type { RunLog, RunSummary } from "../core/store/run-log.ts";

interface LiveRun {
  request: RunRequest;
  /** The log is the one copy of the events, read by every client from the file or its unwritten tail. */
  log: LogWriter;
  /** Readers to tell of each event. */
  watchers: Set<() => void>;
  finished: boolean;
  controller: AbortController;
  done: Promise<void>;
}

export interface RunStoreDeps {
  registry: Registry;
  log: RunLog;
  slots: Slots;
  env?: Record<string, string | undefined>;
  /** How long a permission question waits for the browser before it is denied. */
  askTimeoutMs?: number;
  /** Where a run's own failure is told (one the run could not log: a full disk, say). */
  warn?: (message: string) => void;
}

/**
 * Runs owned by the server: each one drives `runAgent` to its end whether or
 * not anyone watches, and appends every event to the durable log, which is
 * what clients read, each at its own pace, waking when the next event comes.
 */
export class RunStore {
  private readonly live = new Map<string, LiveRun>();
  /** Permission questions waiting for the browser, by `${runId}/${askId}`. */
  private readonly asks = new Map<string, (decision: Decision | undefined) => void>();
  /** Set by shutdown: no run starts after it, so none outlives the server. */
  private closing = false;

  constructor(private readonly deps: RunStoreDeps) {}

  /** Starts a run; with `ask`, the agent's permission requests wait for `decide` (a timeout denies). */
  start(request: RunRequest, opts: { ask?: boolean } = {}): string {
    if (this.closing) throw new OdError("CANCELLED", "The server is shutting down and starts no new runs", "Start od serve again.");
    const runId = crypto.randomUUID();
    const controller = new AbortController();
    this.deps.log.create(runId, request);
    const run: LiveRun = {
      request,
      log: this.deps.log.writer(runId),
      watchers: new Set(),
      finished: false,
      controller,
      done: Promise.resolve(),
    };
    run.done = (async () => {
      const broker: Broker | undefined = opts.ask ? (question, signal) => this.waitForDecision(runId, question.id, signal) : undefined;
      const events = createRun(request, {
        runId,
        registry: this.deps.registry,
        skills: () => loadSkills([], this.deps.env),
        env: this.deps.env,
        signal: controller.signal,
        slots: this.deps.slots,
        broker,
        brokerTimeoutMs: this.deps.askTimeoutMs,
      });
      try {
        for await (const event of events) {
          run.log.append(event);
          if (event.type === "run.finished") run.finished = true;
          wake(run);
        }
      } finally {
        try {
          run.log.close();
        } finally {
          // Even when the log cannot be written: the run is over, and its readers stop waiting.
          run.finished = true;
          this.live.delete(runId);
          wake(run);
        }
      }
    })().catch((err) => this.deps.warn?.(`run ${runId} could not be logged: ${(err as Error)?.message ?? err}`));
    this.live.set(runId, run);
    return runId;
  }

  private waitForDecision(runId: string, askId: string, signal: AbortSignal): Promise<Decision | undefined> {
    const key = `${runId}/${askId}`;
    return new Promise((resolve) => {
      this.asks.set(key, resolve);
      signal.addEventListener("abort", () => {
        this.asks.delete(key);
        resolve(undefined);
      });
    });
  }

  /** The browser's answer to a pending permission request; false when nothing waits for it. */
  decide(runId: string, askId: string, decision: Decision): boolean {
    const resolve = this.asks.get(`${runId}/${askId}`);
    if (!resolve) return false;
    this.asks.delete(`${runId}/${askId}`);
    resolve(decision);
    return true;
  }

  /** A run's events after `cursor`, about `maxBytes` of them; `live` while more may come. */
  read(runId: string, cursor: LogCursor, maxBytes: number): LogBatch & { live: boolean } {
    const run = this.live.get(runId);
    if (run) return { ...run.log.read(cursor, maxBytes), live: true };
    if (!this.deps.log.has(runId)) throw notFound(runId);
    return { ...this.deps.log.readAfter(runId, cursor, maxBytes), live: false };
  }

  /** Calls `onChange` after each event a live run logs and when it ends; returns the unwatch. Nothing for a run that is not live. */
  watch(runId: string, onChange: () => void): () => void {
    const run = this.live.get(runId);
    if (!run) return () => {};
    run.watchers.add(onChange);
    return () => run.watchers.delete(onChange);
  }

  summary(runId: string): RunSummary {
    this.live.get(runId)?.log.flush();
    if (!this.live.has(runId) && !this.deps.log.has(runId)) throw notFound(runId);
    return this.deps.log.summary(runId);
  }

  list(limit = 50): RunSummary[] {
    return this.deps.log.list(limit).map((id) => this.deps.log.summary(id));
  }

  /** Cancels a live run; false when it already ended. */
  cancel(runId: string): boolean {
    const run = this.live.get(runId);
    if (!run) {
      if (!this.deps.log.has(runId)) throw notFound(runId);
      return false;
    }
    run.controller.abort();
    return !run.finished;
  }

  async waitFor(runId: string): Promise<void> {
    await this.live.get(runId)?.done;
  }

  /** Cancels every live run and waits until each has ended (and its processes are gone). */
  async shutdown(): Promise<void> {
    this.closing = true;
    for (const run of this.live.values()) run.controller.abort();
    await Promise.all([...this.live.values()].map((r) => r.done.catch(() => {})));
  }
}

function wake(run: LiveRun): void {
  for (const onChange of run.watchers) onChange();
}

function notFound(runId: string): OdError {
  return new OdError("RUN_NOT_FOUND", `No run with id ${runId}`, "List runs with GET /api/runs.");
}
