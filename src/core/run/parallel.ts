import { join } from "node:path";
import type { OdEvent } from "../contract/events.ts";
import type { RunRequest } from "../contract/request.ts";
import { Slots } from "../os/slots.ts";
import { keptBranch } from "../store/groups.ts";
import type { FileStat, Kept } from "../workspace/keep.ts";
import { recover } from "../workspace/lease.ts";
import { createWorkspace, type Workspace } from "../workspace/worktree.ts";
import { type CreateRunOptions, createRun } from "./pipeline.ts";

export interface ParallelResult {
  agent: string;
  /** Unique among the runs: the agent's id, then `pi#2`, `pi#3` for the same agent again. */
  label: string;
  /** The run's id, as in its events (none when its workspace could not be made). */
  runId?: string;
  status: "succeeded" | "failed" | "cancelled";
  durationMs: number;
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number;
  /** Files the agent changed in its own copy of the working directory. */
  files: string[];
  /** The same files with added and removed lines, once its result is kept. */
  stats?: FileStat[];
  /** Where its result is kept (a branch `od/<groupId>/<label>` or a patch file); undefined when it changed nothing. */
  kept?: Kept;
  note?: string;
  sessionId?: string;
  resumable?: boolean;
  diff?: string;
  error?: string;
  workspace: "worktree" | "copy";
}

export type ParallelItem = { agent: string; label: string; event: OdEvent } | { agent: string; label: string; result: ParallelResult };

/** Where the results are kept: branches `od/<groupId>/<label>`, or patches `<dir>/<label>.patch` outside git. */
export interface KeepTo {
  groupId: string;
  dir: string;
}

/** One label per request, unique: `pi`, `claude`, `pi#2`. */
export function labelsFor(agents: string[]): string[] {
  const seen = new Map<string, number>();
  return agents.map((a) => {
    const n = (seen.get(a) ?? 0) + 1;
    seen.set(a, n);
    return n === 1 ? a : `${a}#${n}`;
  });
}

/**
 * One prompt on several agents at once (at most `maxConcurrent` running), each
 * in its own copy of the working directory (a git worktree in a repository),
 * so the user's tree is never touched. Yields every event labelled by agent,
 * then one result per agent with what it changed.
 */
export async function* parallel(
  requests: RunRequest[],
  opts: Omit<CreateRunOptions, "slots" | "runId"> & {
    maxConcurrent?: number;
    /** Slots shared with other runs (the server's); instead of `maxConcurrent` of its own. */
    slots?: Slots;
    /** Per request, in order: the run's id (known before it starts) and a signal that cancels it alone. */
    members?: Array<{ runId?: string; signal?: AbortSignal }>;
    keep?: KeepTo;
    onBase?: (base: string) => void;
    /** Each member's events pass through this on their way (the CLI records them in the run log). */
    tap?: (events: AsyncIterable<OdEvent>, runId: string, request: RunRequest) => AsyncIterable<OdEvent>;
  },
): AsyncGenerator<ParallelItem> {
  // Workspaces an od killed on the way left behind (their owner runs no more) go before new ones are made.
  await recover(opts.env);
  const slots = opts.slots ?? new Slots(opts.maxConcurrent ?? 4);
  const queue: ParallelItem[] = [];
  let wake: (() => void) | undefined;
  const push = (item: ParallelItem) => {
    queue.push(item);
    wake?.();
  };
  let pending = requests.length;
  const labels = labelsFor(requests.map((r) => r.agent));
  // The first workspace makes the starting commit; the others start from the same one.
  let first: Promise<Workspace> | undefined;
  const workspace = async (request: RunRequest, label: string) => {
    const cwd = request.cwd ?? process.cwd();
    const slug = label.replace(/[^\w-]/g, "_");
    if (!first) {
      first = createWorkspace(cwd, slug, { env: opts.env });
      first.then((ws) => ws.base && opts.onBase?.(ws.base)).catch(() => {});
      return first;
    }
    const base = await first.then((ws) => ws.base).catch(() => undefined);
    return createWorkspace(cwd, slug, { base, env: opts.env });
  };
  const one = async (request: RunRequest, label: string, i: number) => {
    const agent = request.agent;
    let ws: Workspace | undefined;
    const result: ParallelResult = { agent, label, status: "failed", durationMs: 0, files: [], workspace: "copy" };
    try {
      const { maxConcurrent: _, keep: __, onBase: ___, tap, members, slots: ____, ...runOpts } = opts;
      const runId = members?.[i]?.runId ?? crypto.randomUUID();
      const own = [runOpts.signal, members?.[i]?.signal].filter((s) => s !== undefined);
      const signal = own.length > 1 ? AbortSignal.any(own) : own[0];
      // The member's private copy is made as its run begins: one that cannot be made ends that run (its error, its run.finished).
      const prepare = async () => {
        ws = await workspace(request, label);
        result.workspace = ws.kind;
        return ws.dir;
      };
      const events = createRun(request, { ...runOpts, signal, slots, runId, prepare });
      for await (const event of tap ? tap(events, runId, request) : events) {
        if (event.type === "run.result" && event.usage)
          Object.assign(result, {
            inputTokens: event.usage.inputTokens,
            outputTokens: event.usage.outputTokens,
            costUsd: event.usage.costUsd,
          });
        if (event.type === "error") result.error ??= event.message;
        if (event.type === "run.finished")
          Object.assign(result, {
            runId: event.runId,
            status: event.status,
            durationMs: event.durationMs,
            sessionId: event.sessionId,
            resumable: event.resumable,
          });
        push({ agent, label, event });
      }
      if (ws) {
        Object.assign(result, await (ws as Workspace).changes());
        if (opts.keep) await keepResult(ws, label, opts.keep, result);
      }
    } catch (err) {
      result.error ??= messageOf(err);
    } finally {
      await (ws as Workspace | undefined)?.dispose().catch((err) => (result.error ??= messageOf(err)));
      push({ agent, label, result });
    }
  };
  const all = Promise.all(
    requests.map((r, i) =>
      one(r, labels[i]!, i)
        .catch((err) => push(failed(r.agent, labels[i]!, err, opts.members?.[i]?.runId)))
        .finally(() => {
          pending--;
          wake?.();
        }),
    ),
  );
  while (pending > 0 || queue.length) {
    if (!queue.length) await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
    while (queue.length) yield queue.shift()!;
  }
  await all;
}

/** A run that could not even start: its workspace could not be made. */
const failed = (agent: string, label: string, err: unknown, runId?: string): ParallelItem => ({
  agent,
  label,
  result: { agent, label, runId, status: "failed", durationMs: 0, files: [], error: messageOf(err), workspace: "copy" },
});

/** Keeps what the agent changed; a failure to keep it is a note, not a failed run. */
async function keepResult(ws: Workspace, label: string, to: KeepTo, result: ParallelResult): Promise<void> {
  const patchFile = `${label.replace(/[^\w#.-]/g, "_")}.patch`;
  try {
    const kept = await ws.keep({ branch: keptBranch(to.groupId, label), patchPath: join(to.dir, patchFile), patchFile });
    Object.assign(result, { stats: kept.files, kept: kept.kept, note: kept.note });
  } catch (err) {
    result.note = `its result was not kept: ${messageOf(err)}`;
  }
}

const messageOf = (err: unknown) => String((err as Error)?.message ?? err);
