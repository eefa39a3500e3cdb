import { join } from "node:path";
import { loadSkills } from "../builtins.ts";
import { OdError } from "../core/contract/errors.ts";
import { createStamper, type OdEvent } from "../core/contract/events.ts";
import type { RunRequest } from "../core/contract/request.ts";
import { groupOf } from "../core/run/compare-record.ts";
import { labelsFor, type ParallelResult, parallel } from "../core/run/parallel.ts";
import { type Group, readGroup, writeGroup } from "../core/store/groups.ts";
import { storedRequest } from "../core/store/record.ts";
import { runsDirOf } from "../core/workspace/apply.ts";
import { recover } from "../core/workspace/lease.ts";
import type { RunStore } from "./runs.ts";

export interface CompareMember {
  label: string;
  agent: string;
  runId: string;
}

interface Member extends CompareMember {
  controller: AbortController;
  /** Its events, once its workspace is made and its run starts; the store logs them as they pass. */
  source: PromiseWithResolvers<AsyncIterable<OdEvent>>;
  started: boolean;
}

type LiveGroup = { members: Member[]; done: boolean; group?: Group };

/** Finished compare runs kept in memory (their record is group.json; this covers one that could not be written). */
const KEEP_FINISHED = 64;

/**
 * The server's compare runs: one prompt on several agents (or one agent repeated) through the core
 * `parallel()`, kept and recorded exactly as `od run --agent a,b` does (branches `od/<groupId>/<label>`
 * or patches, then group.json). Each member is a live run of the RunStore from the start, with its
 * own id, log, SSE stream and cancel, counted against the server's run slots.
 */
export class CompareRuns {
  private readonly groups = new Map<string, LiveGroup>();

  constructor(private readonly store: RunStore) {
    // The workspaces a killed od left behind go as the server starts (and again before each compare run, in parallel()).
    void recover(store.deps.env).then((dirs) => {
      if (dirs.length) store.deps.warn?.(`removed ${dirs.length} workspace(s) a stopped od left behind: ${dirs.join(", ")}`);
    });
  }

  start(base: Omit<RunRequest, "agent"> & { cwd: string }, agents: string[]): { groupId: string; members: CompareMember[] } {
    const groupId = crypto.randomUUID();
    const labels = labelsFor(agents);
    const members: Member[] = agents.map((agent, i) => ({
      agent,
      label: labels[i]!,
      runId: crypto.randomUUID(),
      controller: new AbortController(),
      source: Promise.withResolvers(),
      started: false,
    }));
    const entry: LiveGroup = { members, done: false };
    const finished = Promise.withResolvers<void>();
    const adopted: Member[] = [];
    try {
      for (const m of members) {
        const request = storedRequest({ ...base, agent: m.agent }, undefined, { groupId });
        // The member stays live until the group is recorded: a server shutting down waits for its results to be kept.
        this.store.adopt(m.runId, request, m.controller, thenWait(m.source.promise, finished.promise));
        adopted.push(m);
      }
    } catch (err) {
      for (const m of adopted) m.source.resolve(failedRun(m.runId, OdError.from(err)));
      finished.resolve();
      throw err;
    }
    this.groups.set(groupId, entry);
    this.drive(groupId, entry, base, labels)
      .catch((err) => this.store.deps.warn?.(`compare run ${groupId}: ${(err as Error)?.message ?? err}`))
      .finally(() => {
        entry.done = true;
        finished.resolve();
        this.prune();
      });
    return { groupId, members: members.map(({ label, agent, runId }) => ({ label, agent, runId })) };
  }

  private async drive(groupId: string, entry: LiveGroup, base: Omit<RunRequest, "agent"> & { cwd: string }, labels: string[]) {
    const { registry, env, slots } = this.store.deps;
    const runsDir = runsDirOf(env);
    const startedAt = Date.now();
    let start: string | undefined;
    const results: ParallelResult[] = [];
    const byRunId = new Map(entry.members.map((m) => [m.runId, m]));
    try {
      for await (const item of parallel(
        entry.members.map((m) => ({ ...base, agent: m.agent })),
        {
          registry,
          env,
          slots,
          skills: () => loadSkills([], env),
          members: entry.members.map((m) => ({ runId: m.runId, signal: m.controller.signal })),
          keep: { groupId, dir: join(runsDir, groupId) },
          onBase: (b) => (start = b),
          tap: (events, runId) => this.relay(byRunId.get(runId)!, events),
        },
      )) {
        if (!("result" in item)) continue;
        results.push(item.result);
        neverRan(
          entry.members.find((m) => m.label === item.label),
          item.result.error,
        );
      }
    } finally {
      for (const m of entry.members) neverRan(m, "it did not start");
    }
    const runIdOf = (label: string) => entry.members.find((m) => m.label === label)?.runId;
    const kept = results.map((r) => ({ ...r, runId: r.runId ?? runIdOf(r.label) }));
    entry.group = groupOf(groupId, { cwd: base.cwd, prompt: base.prompt, startedAt, base: start, labels }, kept);
    writeGroup(runsDir, entry.group);
  }

  /** A member's events on two ways: into the store (which logs and serves them) and on to `parallel`. */
  private relay(member: Member, events: AsyncIterable<OdEvent>): AsyncIterable<OdEvent> {
    member.started = true;
    const { logged, read } = tee(events);
    member.source.resolve(logged);
    return read;
  }

  /** A compare run: its members, whether it is over, and its record once written. */
  status(groupId: string): { groupId: string; done: boolean; members?: CompareMember[]; group?: Group } {
    const entry = this.groups.get(groupId);
    if (entry) {
      const members = entry.members.map(({ label, agent, runId }) => ({ label, agent, runId }));
      return { groupId, done: entry.done, members, group: entry.group };
    }
    const group = /^[\w-]+$/.test(groupId) ? readGroup(runsDirOf(this.store.deps.env), groupId) : undefined;
    if (!group) throw new OdError("RUN_NOT_FOUND", `No compare run ${groupId}`, "POST /api/compare starts one.");
    return { groupId, done: true, group };
  }

  /** Cancels every member still running; how many were. */
  cancel(groupId: string): number {
    const { members, group } = this.status(groupId);
    return (members ?? group?.members ?? []).filter((m) => m.runId && this.store.cancel(m.runId)).length;
  }

  private prune(): void {
    const done = [...this.groups].filter(([, g]) => g.done);
    for (const [id] of done.slice(0, Math.max(0, done.length - KEEP_FINISHED))) this.groups.delete(id);
  }
}

/** The events of `source` once it comes, then nothing more until `after`. */
async function* thenWait(source: Promise<AsyncIterable<OdEvent>>, after: Promise<void>): AsyncGenerator<OdEvent> {
  yield* await source;
  await after;
}

/** One stream read twice: `logged` pulls it (the store's pace), `read` gets each event it pulled. */
function tee(events: AsyncIterable<OdEvent>) {
  const queue: OdEvent[] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  async function* logged() {
    try {
      for await (const e of events) {
        queue.push(e);
        notify();
        yield e;
      }
    } finally {
      ended = true;
      notify();
    }
  }
  async function* read() {
    for (;;) {
      if (queue.length) yield queue.shift()!;
      else if (ended) return;
      else await new Promise<void>((resolve) => (wake = resolve));
    }
  }
  return { logged: logged(), read: read() };
}

/** A member whose workspace could not be made never ran: its log still ends, saying why. */
function neverRan(m: Member | undefined, why = "it did not start"): void {
  if (!m || m.started) return;
  m.started = true;
  m.source.resolve(failedRun(m.runId, new OdError("SPAWN_FAILED", `${m.label} did not start: ${why}`)));
}

/** The whole log of a member that never ran: why, and its one run.finished. */
async function* failedRun(runId: string, err: OdError): AsyncGenerator<OdEvent> {
  const stamp = createStamper(runId);
  yield stamp({ type: "error", code: err.code, message: err.message, hint: err.hint, retryable: false });
  yield stamp({ type: "run.finished", status: "failed", exitCode: null, signal: null, durationMs: 0, resumable: false });
}
