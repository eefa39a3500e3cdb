import { loadSkills } from "../builtins.ts";
import { canResumeWith, type Registry } from "../core/agents/registry.ts";
import { OdError } from "../core/contract/errors.ts";
import type { OdEvent } from "../core/contract/events.ts";
import type { Decision } from "../core/contract/permissions.ts";
import type { RunRequest } from "../core/contract/request.ts";
import type { Broker } from "../core/run/permissions.ts";
import { createRun } from "../core/run/pipeline.ts";
import type { Slots } from "../core/run/slots.ts";
import type { LogBatch, LogCursor } from "../core/store/log-read.ts";
import type { LogWriter } from "../core/store/log-writer.ts";
import type { RunLog, RunSummary } from "../core/store/run-log.ts";
import { type LiveRun, wake } from "./live-run.ts";
import { StorageGate, storageEnd } from "./storage-gate.ts";
import { noteEvent, SummaryCache, startSummary } from "./summaries.ts";
import type { Targets } from "./targets.ts";

/** Runs whose last events only memory holds (their log could not take them), kept for their readers; the newest this many. */
const ENDED_IN_MEMORY = 64;

export interface RunStoreDeps {
  registry: Registry;
  log: RunLog;
  slots: Slots;
  /** The named targets clients may run on (OD_HOME/targets.json), each with slots of its own. */
  targets?: Targets;
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
  /** Runs that ended after their log failed: their last events are here, not in the file. */
  private readonly ended = new Map<string, LogWriter>();
  private readonly summaries = new SummaryCache();
  private readonly storage: StorageGate;

  constructor(readonly deps: RunStoreDeps) {
    this.storage = new StorageGate(() => deps.log.probe());
  }

  /** Starts a run; with `ask`, the agent's permission requests wait for `decide` (a timeout denies); `slots`: a target's. */
  start(request: RunRequest, opts: { ask?: boolean; slots?: Slots } = {}): string {
    const runId = crypto.randomUUID();
    const controller = new AbortController();
    const broker: Broker | undefined = opts.ask ? (question, signal) => this.waitForDecision(runId, question.id, signal) : undefined;
    const { registry, env, askTimeoutMs: brokerTimeoutMs } = this.deps;
    const skills = () => loadSkills([], env);
    const slots = opts.slots ?? this.deps.slots;
    const opt = { runId, registry, skills, env, signal: controller.signal, slots, broker, brokerTimeoutMs };
    this.adopt(runId, request, controller, createRun(request, opt));
    return runId;
  }

  /**
   * Serves and logs a run whose events come from elsewhere (a compare run's member, or `start`'s own)
   * like any of its own: live, watchable, cancelled through `controller`; `request` is what request.json keeps.
   */
  adopt(runId: string, request: RunRequest, controller: AbortController, events: AsyncIterable<OdEvent>): void {
    if (this.closing) throw new OdError("CANCELLED", "The server is shutting down and starts no new runs", "Start od serve again.");
    this.storage.check();
    let log: LogWriter;
    try {
      log = this.deps.log.open(runId, request, (err) => this.storageFailed(run, err));
    } catch (err) {
      throw this.storage.note(err);
    }
    const run: LiveRun = {
      runId,
      request,
      log,
      watchers: new Set(),
      finished: false,
      controller,
      done: Promise.resolve(),
      summary: startSummary(runId, request),
      seq: -1,
    };
    run.done = this.drive(run, events).catch((err) =>
      this.deps.warn?.(`run ${runId} could not be logged: ${(err as Error)?.message ?? err}`),
    );
    this.live.set(runId, run);
  }

  /** Logs a run's events to its end, keeping its summary; after a storage failure the rest is drained, not logged. */
  private async drive(run: LiveRun, events: AsyncIterable<OdEvent>): Promise<void> {
    try {
      for await (const event of events) {
        if (run.finished) continue;
        if (event.type === "run.finished") run.finished = true;
        noteEvent(run.summary, event, run.seq < 0);
        run.seq = event.seq;
        run.log.append(event);
        wake(run);
      }
    } finally {
      try {
        run.log.close();
      } finally {
        // Even when the log cannot be written: the run is over, and its readers stop waiting.
        run.finished = true;
        if (run.summary.status === "running") run.summary.status = "failed";
        this.summaries.set(run.runId, run.summary);
        if (run.log.failed) this.keepEnded(run);
        this.live.delete(run.runId);
        wake(run);
      }
    }
  }

  /**
   * The run's log could not be written (a full disk): the run ends now, with
   * an error and its one run.finished kept in memory for its readers, and its
   * agent is cancelled. New runs wait until storage works again.
   */
  private storageFailed(run: LiveRun, err: OdError): void {
    this.storage.note(err);
    this.deps.warn?.(`run ${run.runId}: ${err.message}`);
    if (run.finished) return; // its own run.finished is kept, in the file or in memory
    run.finished = true;
    const canResume = run.summary.agent ? canResumeWith(this.deps.registry, run.summary.agent) : false;
    for (const event of storageEnd(run.runId, run.seq, run.summary, err, canResume)) {
      run.log.append(event);
      noteEvent(run.summary, event, false);
    }
    run.controller.abort();
    wake(run);
  }

  private keepEnded(run: LiveRun): void {
    this.ended.set(run.runId, run.log);
    if (this.ended.size > ENDED_IN_MEMORY) this.ended.delete(this.ended.keys().next().value!);
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
    const ended = this.ended.get(runId);
    if (ended) return { ...ended.read(cursor, maxBytes), live: false };
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

  /**
   * A run's summary: a live run's from memory, another's from its log's two ends once, then from a
   * cache; one still running elsewhere (an `od run` in a terminal) is read again until it ends.
   */
  summary(runId: string): RunSummary {
    const run = this.live.get(runId);
    if (run) return { ...run.summary };
    const known = this.summaries.get(runId);
    if (known) return known;
    if (!this.deps.log.has(runId)) throw notFound(runId);
    const summary = this.deps.log.summary(runId);
    if (summary.status !== "running") this.summaries.set(runId, summary);
    return summary;
  }

  /** The newest runs' summaries (a run whose directory went away meanwhile is left out). */
  list(limit = 50): RunSummary[] {
    return this.deps.log.list(limit).flatMap((id) => {
      try {
        return [this.summary(id)];
      } catch {
        return [];
      }
    });
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

function notFound(runId: string): OdError {
  return new OdError("RUN_NOT_FOUND", `No run with id ${runId}`, "List runs with GET /api/runs.");
}
