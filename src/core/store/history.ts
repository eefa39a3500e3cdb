import { existsSync } from "node:fs";
import { join } from "node:path";
import { OdError } from "../contract/errors.ts";
import { type Group, readGroup } from "./groups.ts";
import type { RunLog } from "./run-log.ts";
import { processAlive, type RunSummary } from "./summary.ts";

/**
 * Past runs as `od runs` lists them, from the run log every surface writes (OD_HOME/runs): single
 * runs, and compare runs as one entry each (their group.json), with their members inside it rather
 * than listed again on their own.
 */
export type HistoryEntry = { kind: "run"; run: RunSummary } | { kind: "group"; group: Group; members: RunSummary[] };

const isGroup = (log: RunLog, name: string) => existsSync(join(log.dir, name, "group.json"));

/** The newest `limit` entries, newest first. A folder that is neither a run nor a readable group is left out. */
export function history(log: RunLog, limit = 20): HistoryEntry[] {
  const names = log.entries(Number.MAX_SAFE_INTEGER);
  const groups = new Map<string, Group>();
  for (const name of names) {
    const group = isGroup(log, name) ? readGroup(log.dir, name) : undefined;
    if (group) groups.set(name, group);
  }
  const members = new Set([...groups.values()].flatMap((g) => g.members.map((m) => m.runId)));
  const entries: HistoryEntry[] = [];
  for (const name of names) {
    if (entries.length >= limit) break;
    const group = groups.get(name);
    if (group) entries.push({ kind: "group", group, members: group.members.flatMap((m) => summaryOf(log, m.runId) ?? []) });
    else if (!members.has(name) && !isGroup(log, name)) {
      const run = summaryOf(log, name);
      if (run && (run.groupId === undefined || !groups.has(run.groupId))) entries.push({ kind: "run", run });
    }
  }
  return entries.sort((a, b) => startOf(b) - startOf(a));
}

const startOf = (e: HistoryEntry) => (e.kind === "run" ? e.run.startedAt : e.group.startedAt);

/** A run's summary from its log, or undefined when its folder went away meanwhile. */
export function summaryOf(log: RunLog, runId: string): RunSummary | undefined {
  try {
    const summary = log.summary(runId);
    // A CLI run whose od died without its run.finished (killed, the machine off) runs no more.
    const pid = log.request(runId)?.pid;
    if (summary.status === "running" && typeof pid === "number" && !processAlive(pid)) return { ...summary, status: "failed" };
    return summary;
  } catch {
    return undefined;
  }
}

/** The one run or compare run whose id starts with `prefix` (like git's short ids); a usage error when none or several do. */
export function resolveRunId(log: RunLog, prefix: string): { id: string; group?: Group } {
  const names = /^[\w-]+$/.test(prefix) ? log.entries(Number.MAX_SAFE_INTEGER).filter((n) => n.startsWith(prefix)) : [];
  const exact = names.find((n) => n === prefix);
  if (!exact && names.length > 1)
    throw new OdError(
      "INVALID_REQUEST",
      `The id ${prefix} is ambiguous: ${names.length} runs start with it (${names.slice(0, 5).join(", ")}${names.length > 5 ? ", …" : ""})`,
      "Give more of the id; `od runs` lists them.",
    );
  const id = exact ?? names[0];
  if (!id)
    throw new OdError("INVALID_REQUEST", `No run with an id starting ${prefix} in ${log.dir}`, "`od runs` lists the runs kept there.");
  return { id, group: isGroup(log, id) ? readGroup(log.dir, id) : undefined };
}
