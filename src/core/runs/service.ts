import { OdError } from "../contract/errors.ts";
import type { OdEvent } from "../contract/events.ts";
import type { RunRequest } from "../contract/request.ts";
import { type CreateRunOptions, createRunBatches } from "../run/pipeline.ts";
import type { LogBatch, LogCursor } from "../store/log-read.ts";
import type { RunSummary } from "../store/summary.ts";
import { drive } from "./drive.ts";
import { type CompareOptions, type GroupHandle, startGroup } from "./groups.ts";
import { runHandle } from "./handle.ts";
import { type HistoryRecord, history } from "./history.ts";
import { ask, type LiveRun, wake } from "./live.ts";
import { readRun } from "./reading.ts";
import { type Recovered, recoverAbandoned } from "./recover.ts";
import { StorageGate } from "./storage.ts";
import { startSummary } from "./summaries.ts";
import { notFound, type Reading, type RunHandle, type RunsCore, type RunsDeps, type StartOptions } from "./types.ts";

export type { Passed } from "./live.ts";
export { type Origin, Refusal, type RunHandle, type RunsDeps, type StartOptions } from "./types.ts";

/**
 * The run service: a run's whole life in one place, for every surface. `start` mints the id,
 * composes the run (`createRun`), queues it for a slot (status `queued` until its agent starts),
 * records it in the run log (from its first event that is not a refusal: a run refused before it
 * started is an error, not history), relays permission answers, ends it cleanly when its storage
 * fails, and serves its events to followers (objects, in order) and readers (the log, at their own
 * pace). Surfaces render handles; none builds a run.
 */
export class Runs implements RunsCore {
  readonly live = new Map<string, LiveRun>();
  /** Compare runs this od drives, by group id, until they are recorded. */
  readonly groups = new Map<string, GroupHandle>();
  readonly storage: StorageGate;
  readonly reading: Reading;
  private closing = false;

  constructor(readonly deps: RunsDeps) {
    this.storage = new StorageGate(() => deps.log.probe());
    this.reading = readRun(this);
  }

  /** Starts a run; resolves with its handle once it is queued or started, or rejects with the error that refused it. */
  start(request: RunRequest, opts: StartOptions): Promise<RunHandle> {
    const runId = opts.runId ?? crypto.randomUUID();
    const controller = new AbortController();
    const stop = () => controller.abort();
    if (opts.signal?.aborted) stop();
    opts.signal?.addEventListener("abort", stop, { once: true });
    const { registry, env, askTimeoutMs } = this.deps;
    const run: Partial<LiveRun> = {};
    const broker: CreateRunOptions["broker"] = opts.ask ? (q, signal) => ask(run as LiveRun, q.id, signal) : opts.broker;
    const created = createRunBatches(request, {
      runId,
      registry,
      env,
      skills: this.deps.skills,
      signal: controller.signal,
      slots: opts.slots ?? this.deps.slots,
      broker,
      brokerTimeoutMs: askTimeoutMs,
      sandbox: this.deps.sandbox,
      retry: opts.retry,
      changes: opts.changes,
      resolveCwd: opts.resolveCwd,
      ladder: opts.ladder,
    });
    const started = this.adopt(runId, request, controller, created, opts, run);
    // The caller's signal cancels the run for its whole life, not only until it is recorded.
    void (run as LiveRun).done?.finally(() => opts.signal?.removeEventListener("abort", stop));
    return started;
  }

  /**
   * Drives events that come from elsewhere (a compare member's, through `parallel`) as a run of its
   * own: recorded, followed, read and cancelled like `start`'s. `into` receives the live run.
   */
  adopt(
    runId: string,
    request: RunRequest,
    controller: AbortController,
    events: AsyncIterable<OdEvent[]>,
    opts: Pick<StartOptions, "origin" | "groupId"> & { recordAtOnce?: boolean },
    into: Partial<LiveRun> = {},
  ): Promise<RunHandle> {
    if (this.closing) return Promise.reject(new OdError("CANCELLED", "od is shutting down and starts no new runs", "Start it again."));
    try {
      this.storage.check();
    } catch (err) {
      return Promise.reject(err);
    }
    const run = Object.assign(into, {
      runId,
      request,
      summary: { ...startSummary(runId, request, opts), status: "queued" as const },
      seq: -1,
      finished: false,
      controller,
      watchers: new Set<() => void>(),
      followers: new Set(),
      asks: new Map(),
      done: Promise.resolve(),
    }) as LiveRun;
    this.live.set(runId, run);
    const recorded = Promise.withResolvers<RunHandle>();
    run.done = drive(this, run, events, opts, {
      recorded: () => recorded.resolve(runHandle(this, run)),
      refused: (err) => recorded.reject(err),
    }).finally(() => {
      this.live.delete(runId);
      wake(run);
    });
    return recorded.promise;
  }

  /** A live run's handle (undefined once it ended: its record says the rest). */
  get(runId: string): RunHandle | undefined {
    const run = this.live.get(runId);
    return run ? runHandle(this, run) : undefined;
  }

  /** Cancels a live run; false when it already ended; RUN_NOT_FOUND when there is no such run. */
  cancel(runId: string): boolean {
    const run = this.live.get(runId);
    if (!run) {
      if (!this.deps.log.has(runId)) throw notFound(runId);
      return false;
    }
    run.controller.abort();
    return !run.finished;
  }

  /** The answer to a pending permission request; false when nothing waits for it. */
  decide(runId: string, askId: string, decision: "allow" | "deny"): boolean {
    const resolve = this.live.get(runId)?.asks.get(askId);
    if (!resolve) return false;
    resolve(decision);
    return true;
  }

  /** A run's events after `cursor` from its log (about `maxBytes`), `live` while more may come: what SSE readers read. */
  read(runId: string, cursor: LogCursor, maxBytes: number): LogBatch & { live: boolean } {
    return this.reading.read(runId, cursor, maxBytes);
  }

  /** Calls `onChange` after each event a live run logs and when it ends; returns the unwatch. */
  watch(runId: string, onChange: () => void): () => void {
    const run = this.live.get(runId);
    if (!run) return () => {};
    run.watchers.add(onChange);
    return () => run.watchers.delete(onChange);
  }

  /** Resolves once a live run has ended (at once for one that is not live). */
  async waitFor(runId: string): Promise<void> {
    await this.live.get(runId)?.done;
  }

  summary(runId: string): RunSummary {
    return this.reading.summary(runId);
  }

  /** Past and live runs, newest first: the one list `od runs` and `GET /api/runs` give (a compare run is one record). */
  list(limit = 50): HistoryRecord[] {
    return history(this.deps.log, limit, (runId) => {
      try {
        return this.summary(runId);
      } catch {
        return undefined; // its folder went away meanwhile
      }
    });
  }

  /** Starts a compare run: the agents side by side on the same task, each in a private copy, the group recorded as it goes. */
  compare(base: Omit<RunRequest, "agent"> & { cwd: string }, agents: string[], opts: CompareOptions): GroupHandle {
    if (this.closing) throw new OdError("CANCELLED", "od is shutting down and starts no new runs", "Start it again.");
    this.storage.check();
    const group = startGroup(this, base, agents, opts);
    this.groups.set(group.groupId, group);
    group.done.catch(() => {}).finally(() => this.groups.delete(group.groupId));
    return group;
  }

  /** Ends what a dead od left live (its runs, its compare runs, its workspaces): once, as a server takes the home over. */
  recover(): Recovered {
    return recoverAbandoned(this);
  }

  /** Cancels every live run and waits until each has ended (and its processes are gone); starts none after. */
  async shutdown(): Promise<void> {
    this.closing = true;
    for (const run of this.live.values()) run.controller.abort();
    for (const group of this.groups.values()) group.cancel();
    await Promise.all([...this.live.values()].map((r) => r.done.catch(() => {})));
    // A compare run is recorded after its members end (their results kept): that finishes too.
    await Promise.all([...this.groups.values()].map((g) => g.done.catch(() => {})));
  }
}
