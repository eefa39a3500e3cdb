import type { Group, GroupMember } from "../store/groups.ts";
import type { ParallelResult } from "./parallel.ts";

/** The record of one member of a compare run, from its result. */
export function memberOf(r: ParallelResult): GroupMember {
  const usage =
    r.inputTokens === undefined && r.outputTokens === undefined && r.costUsd === undefined
      ? undefined
      : { inputTokens: r.inputTokens, outputTokens: r.outputTokens, costUsd: r.costUsd };
  const note = [r.error, r.note].filter(Boolean).join("; ") || undefined;
  return {
    label: r.label,
    agent: r.agent,
    runId: r.runId ?? "",
    status: r.status,
    durationMs: r.durationMs,
    usage,
    sessionId: r.sessionId,
    resumable: r.resumable,
    files: r.stats ?? r.files.map((path) => ({ path, added: 0, removed: 0 })),
    kept: r.kept,
    note,
  };
}

/** The record of a whole compare run, members in the order they were asked for. */
export function groupOf(
  id: string,
  request: { cwd: string; prompt: string; startedAt: number; base?: string; labels: string[] },
  results: ParallelResult[],
): Group {
  const order = (r: ParallelResult) => request.labels.indexOf(r.label);
  return {
    id,
    cwd: request.cwd,
    prompt: request.prompt,
    startedAt: request.startedAt,
    base: request.base,
    members: [...results].sort((a, b) => order(a) - order(b)).map(memberOf),
  };
}

/** `+12 −3` for a member's files together. */
export function lineTotals(files: { added: number; removed: number }[]): { added: number; removed: number } {
  return files.reduce((t, f) => ({ added: t.added + f.added, removed: t.removed + f.removed }), { added: 0, removed: 0 });
}
