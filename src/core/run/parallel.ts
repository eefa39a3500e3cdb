import type { OdEvent } from "../events.ts";
import { createWorkspace } from "../workspace/worktree.ts";
import { type CreateRunOptions, createRun } from "./pipeline.ts";
import type { RunRequest } from "./request.ts";
import { Slots } from "./slots.ts";

export interface ParallelResult {
  agent: string;
  /** The run's id, as in its events (none when its workspace could not be made). */
  runId?: string;
  status: "succeeded" | "failed" | "cancelled";
  durationMs: number;
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number;
  /** Files the agent changed in its own copy of the working directory. */
  files: string[];
  diff?: string;
  error?: string;
  workspace: "worktree" | "copy";
}

export type ParallelItem = { agent: string; event: OdEvent } | { agent: string; result: ParallelResult };

/**
 * One prompt on several agents at once (at most `maxConcurrent` running), each
 * in its own copy of the working directory (a git worktree in a repository),
 * so the user's tree is never touched. Yields every event labelled by agent,
 * then one result per agent with what it changed.
 */
export async function* parallel(
  requests: RunRequest[],
  opts: Omit<CreateRunOptions, "slots" | "runId"> & { maxConcurrent?: number },
): AsyncGenerator<ParallelItem> {
  const slots = new Slots(opts.maxConcurrent ?? 4);
  const queue: ParallelItem[] = [];
  let wake: (() => void) | undefined;
  const push = (item: ParallelItem) => {
    queue.push(item);
    wake?.();
  };
  let pending = requests.length;
  const one = async (request: RunRequest) => {
    const label = request.agent;
    const ws = await createWorkspace(request.cwd ?? process.cwd(), label.replace(/[^\w-]/g, "_"));
    const result: ParallelResult = { agent: label, status: "failed", durationMs: 0, files: [], workspace: ws.kind };
    try {
      const { maxConcurrent: _, ...runOpts } = opts;
      for await (const event of createRun({ ...request, cwd: ws.dir }, { ...runOpts, slots })) {
        if (event.type === "run.result" && event.usage)
          Object.assign(result, {
            inputTokens: event.usage.inputTokens,
            outputTokens: event.usage.outputTokens,
            costUsd: event.usage.costUsd,
          });
        if (event.type === "error") result.error ??= event.message;
        if (event.type === "run.finished")
          Object.assign(result, { runId: event.runId, status: event.status, durationMs: event.durationMs });
        push({ agent: label, event });
      }
      Object.assign(result, await ws.changes());
    } catch (err) {
      result.error ??= messageOf(err);
    } finally {
      await ws.dispose().catch((err) => (result.error ??= messageOf(err)));
      push({ agent: label, result });
    }
  };
  const failed = (agent: string, err: unknown): ParallelItem => ({
    agent,
    result: { agent, status: "failed", durationMs: 0, files: [], error: messageOf(err), workspace: "copy" },
  });
  const all = Promise.all(
    requests.map((r) =>
      one(r)
        .catch((err) => push(failed(r.agent, err)))
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

const messageOf = (err: unknown) => String((err as Error)?.message ?? err);
