import { join } from "node:path";
import { OdError } from "../contract/errors.ts";
import type { OdEvent } from "../contract/events.ts";
import type { RunRequest } from "../contract/request.ts";
import { groupOf, memberOf } from "../run/compare-record.ts";
import { labelsFor, type ParallelItem, type ParallelResult, parallel } from "../run/parallel.ts";
import { createRun } from "../run/pipeline.ts";
import type { RetryPolicy } from "../run/retry.ts";
import { type Group, type GroupMember, writeGroup } from "../store/groups.ts";
import { Follower } from "./live.ts";
import type { Origin, RunsCore as Runs } from "./types.ts";

/** A compare run as a surface holds it: its members, every item as it comes, cancel, and its record when done. */
export interface GroupHandle {
  groupId: string;
  members: Array<{ label: string; agent: string; runId: string }>;
  /** Each member's events (labelled), then its result, as they come; ends when the group is recorded. */
  items(): AsyncGenerator<ParallelItem>;
  /** Cancels every member still running; how many were. */
  cancel(): number;
  /** The group's record once every member has ended and its result is kept (undefined if it could not be written). */
  done: Promise<{ group: Group; results: ParallelResult[]; recorded: boolean }>;
}

export interface CompareOptions {
  origin: Origin;
  signal?: AbortSignal;
  retry?: Partial<RetryPolicy>;
}

/**
 * One prompt on several agents (or one agent repeated), for the CLI and the server alike: each
 * member a run of the service (recorded, followed, read and cancelled by its own id) in its own
 * copy of the working directory (core/run/parallel.ts), the group recorded in group.json as it
 * starts (members queued, this od its owner), again as each member ends, and at its end.
 */
export function startGroup(
  runs: Runs,
  base: Omit<RunRequest, "agent"> & { cwd: string },
  agents: string[],
  opts: CompareOptions,
): GroupHandle {
  const groupId = crypto.randomUUID();
  const labels = labelsFor(agents);
  const members = agents.map((agent, i) => ({ agent, label: labels[i]!, runId: crypto.randomUUID(), controller: new AbortController() }));
  const runsDir = runs.deps.log.dir;
  const startedAt = Date.now();
  const record = (group: Group) => {
    try {
      writeGroup(runsDir, group);
      return true;
    } catch (err) {
      runs.deps.warn?.(`compare run ${groupId} could not be recorded, so \`od apply\` cannot find it: ${(err as Error).message}`);
      return false;
    }
  };
  const results = new Map<string, ParallelResult>();
  let baseCommit: string | undefined;
  const live = (): Group => ({
    id: groupId,
    cwd: base.cwd,
    prompt: base.prompt,
    startedAt,
    base: baseCommit,
    status: "running",
    owner: { pid: process.pid },
    members: members.map((m) => memberNow(runs, m, results.get(m.label))),
  });
  record(live());
  const followers = new Set<Follower<ParallelItem>>();
  const stop = () => {
    for (const m of members) m.controller.abort();
  };
  opts.signal?.addEventListener("abort", stop, { once: true });
  // Every member is a run of the service from the start (queued, recorded, watchable by its id); its
  // events come once `parallel` starts it, in its private copy.
  const handles = new Map<string, ReturnType<typeof adoptMember>>(
    members.map((m) => [m.runId, adoptMember(runs, m, { ...base, agent: m.agent }, { ...opts, groupId })]),
  );
  const driven = (async () => {
    try {
      const items = parallel(
        members.map((m) => ({ ...base, agent: m.agent })),
        {
          registry: runs.deps.registry,
          env: runs.deps.env,
          slots: runs.deps.slots,
          skills: runs.deps.skills,
          sandbox: runs.deps.sandbox,
          retry: opts.retry,
          members: members.map((m) => ({ runId: m.runId, signal: m.controller.signal })),
          keep: { groupId, dir: join(runsDir, groupId) },
          onBase: (b) => (baseCommit = b),
          tap: (events, runId) => handles.get(runId)!.follow(events),
        },
      );
      for await (const item of items) {
        if ("result" in item) {
          results.set(item.label, item.result);
          record(live());
        }
        for (const f of followers) f.push(item);
        for (const f of followers) await f.room();
      }
    } finally {
      // A member `parallel` never started still ends, through the pipeline, with its one run.finished.
      for (const h of handles.values()) h.never();
    }
    const all = members
      .flatMap((m) => results.get(m.label) ?? [])
      .map((r) => ({ ...r, runId: r.runId ?? members.find((m) => m.label === r.label)?.runId }));
    const group = {
      ...groupOf(groupId, { cwd: base.cwd, prompt: base.prompt, startedAt, base: baseCommit, labels }, all),
      status: statusOf(all),
    };
    return { group, results: all, recorded: record(group) };
  })().finally(() => {
    opts.signal?.removeEventListener("abort", stop);
    for (const f of followers) f.end();
  });
  return {
    groupId,
    members: members.map(({ label, agent, runId }) => ({ label, agent, runId })),
    async *items() {
      const follower = new Follower<ParallelItem>();
      followers.add(follower);
      try {
        for (let item = await follower.next(); item; item = await follower.next()) yield item;
      } finally {
        followers.delete(follower);
        follower.close();
      }
    },
    cancel: () => {
      const running = members.filter((m) => !m.controller.signal.aborted && !results.has(m.label));
      for (const m of running) m.controller.abort();
      return running.length;
    },
    done: driven,
  };
}

type Member = { agent: string; label: string; runId: string; controller: AbortController };

/**
 * A member as a run of the service from the group's start: adopted at once with its events still to
 * come (`follow` hands them over when `parallel` starts it, and gives back what its own followers see),
 * or, if it is never started, a run that ends as refused to start (the pipeline's own ending).
 */
function adoptMember(runs: Runs, m: Member, request: RunRequest, opts: CompareOptions & { groupId: string }) {
  const source = Promise.withResolvers<AsyncIterable<OdEvent>>();
  async function* deferred() {
    for await (const event of await source.promise) yield [event];
  }
  const handle = runs.adopt(m.runId, request, m.controller, deferred(), { origin: opts.origin, groupId: opts.groupId, recordAtOnce: true });
  handle.catch(() => {}); // a record that cannot be made: the member's events still reach `parallel` below
  let started = false;
  return {
    async *follow(events: AsyncIterable<OdEvent>): AsyncGenerator<OdEvent> {
      started = true;
      source.resolve(events);
      yield* (await handle).events();
    },
    never(): void {
      if (started) return;
      started = true;
      const why = () => Promise.reject(new OdError("CANCELLED", `${m.label} did not start: its compare run ended first`));
      source.resolve(createRun(request, { registry: runs.deps.registry, runId: m.runId, prepare: why, changes: false }));
    },
  };
}

/** A member as group.json says it while the group runs: its result once it has one, else queued or running. */
function memberNow(runs: Runs, m: Member, result: ParallelResult | undefined): GroupMember {
  if (result) return memberOf({ ...result, runId: result.runId ?? m.runId });
  const status = runs.live.get(m.runId)?.summary.status === "running" ? "running" : "queued";
  return { label: m.label, agent: m.agent, runId: m.runId, status, durationMs: 0, files: [] };
}

function statusOf(results: ParallelResult[]): NonNullable<Group["status"]> {
  if (results.some((r) => r.status === "cancelled")) return "cancelled";
  return results.every((r) => r.status === "succeeded") ? "succeeded" : "failed";
}
