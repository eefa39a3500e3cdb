import { existsSync } from "node:fs";
import { join } from "node:path";
import { OdError } from "../contract/errors.ts";
import { type Group, readGroup } from "../store/groups.ts";
import type { RunLog } from "../store/run-log.ts";
import type { RunSummary } from "../store/summary.ts";
import { settled } from "./reading.ts";
import { type ThreadRecord, threads } from "./threads.ts";

export type { ThreadRecord } from "./threads.ts";

/**
 * Past runs, one list for every surface: `od runs --json` and `GET /api/runs` print the same
 * records, the web UI draws them. A single run is its summary; a compare run is ONE record with
 * its members inside it (never listed again on their own). Newest first.
 */
export type HistoryRecord = RunRecord | CompareRecord | ThreadRecord;

export interface RunRecord extends RunSummary {
  kind: "run";
}

export interface CompareRecord {
  kind: "compare";
  /** The compare run's id (`od apply <id> <label>`). */
  groupId: string;
  prompt: string;
  cwd: string;
  startedAt: number;
  status: NonNullable<Group["status"]> | "running";
  /** The commit the members started from (git only), and which one was applied. */
  base?: string;
  applied?: Group["applied"];
  /** The longest member's time, and the members' usage summed. */
  durationMs?: number;
  usage?: RunSummary["usage"];
  members: Array<RunSummary & Pick<Group["members"][number], "label" | "files" | "kept" | "note">>;
}

const isGroup = (log: RunLog, name: string) => existsSync(join(log.dir, name, "group.json"));

/** The newest `limit` records, newest first; `summary` answers for a run (a live one from memory). */
export function history(
  log: RunLog,
  limit = 20,
  summary: (runId: string) => RunSummary | undefined = (id) => summaryOf(log, id),
): HistoryRecord[] {
  const names = log.entries(Number.MAX_SAFE_INTEGER);
  const groups = new Map<string, Group>();
  for (const name of names) {
    const group = isGroup(log, name) ? readGroup(log.dir, name) : undefined;
    if (group) groups.set(name, group);
  }
  const members = new Set([...groups.values()].flatMap((g) => g.members.map((m) => m.runId)));
  const compares: CompareRecord[] = [];
  const singles: RunSummary[] = [];
  // Read a bounded window, newest first: enough for `limit` records once conversations are folded.
  for (const name of names.slice(0, Math.max(limit * 4, limit + 32))) {
    const group = groups.get(name);
    if (group) compares.push(compareRecord(group, summary));
    else if (!members.has(name) && !isGroup(log, name)) {
      const run = summary(name);
      if (run && (run.groupId === undefined || !groups.has(run.groupId))) singles.push(run);
    }
  }
  const folded = threads(singles).map((r): HistoryRecord => ("kind" in r && r.kind === "thread" ? r : { kind: "run", ...r }));
  return [...compares, ...folded].sort((a, b) => b.startedAt - a.startedAt).slice(0, limit);
}

/** A compare run as one record: group.json, each member with its run's summary where it has a record. */
export function compareRecord(group: Group, summary: (runId: string) => RunSummary | undefined): CompareRecord {
  const members = group.members.map((m) => {
    const run = m.runId ? summary(m.runId) : undefined;
    const own = { label: m.label, files: m.files, kept: m.kept, note: m.note };
    // A member still queued or running in group.json says more than a summary of a run not yet recorded.
    return {
      ...(run ?? { runId: m.runId, agent: m.agent, status: m.status, startedAt: group.startedAt, durationMs: m.durationMs }),
      ...own,
    };
  });
  const usages = members.map((m) => m.usage).filter((u) => u !== undefined);
  const sum = (key: "inputTokens" | "outputTokens" | "costUsd") =>
    usages.some((u) => u[key] !== undefined) ? usages.reduce((n, u) => n + (u[key] ?? 0), 0) : undefined;
  return {
    kind: "compare",
    groupId: group.id,
    prompt: group.prompt,
    cwd: group.cwd,
    startedAt: group.startedAt,
    status: group.status ?? statusOf(members),
    base: group.base,
    applied: group.applied,
    durationMs: Math.max(0, ...members.map((m) => m.durationMs ?? 0)),
    usage: usages.length
      ? JSON.parse(JSON.stringify({ inputTokens: sum("inputTokens"), outputTokens: sum("outputTokens"), costUsd: sum("costUsd") }))
      : undefined,
    members,
  };
}

/** An older record (no status of its own): how its members ended. */
function statusOf(members: Array<{ status: RunSummary["status"] }>): CompareRecord["status"] {
  if (members.some((m) => m.status === "cancelled")) return "cancelled";
  return members.every((m) => m.status === "succeeded") ? "succeeded" : "failed";
}

/** A run's summary from its log, or undefined when its folder went away meanwhile; one whose od died is interrupted. */
export function summaryOf(log: RunLog, runId: string): RunSummary | undefined {
  try {
    return settled(log.summary(runId), log.request(runId)?.pid);
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
    throw new OdError(
      "INVALID_REQUEST",
      `No run with an id starting ${prefix} in ${log.dir}`,
      "`od runs` lists the runs kept there (the first 8 characters of an id are enough).",
    );
  return { id, group: isGroup(log, id) ? readGroup(log.dir, id) : undefined };
}

/**
 * The compare run an id names, whole or by its start as `od runs` prints it (`od apply`, `od
 * discard`): through `resolveRunId`, so every command takes the same ids. A single run's id is
 * a usage error that names its compare run when it is one's member.
 */
export function resolveGroupId(log: RunLog, prefix: string): string {
  const { id } = resolveRunId(log, prefix);
  if (isGroup(log, id)) return id;
  const groupId = summaryOf(log, id)?.groupId;
  throw new OdError(
    "INVALID_REQUEST",
    groupId ? `Run ${id} is part of compare run ${groupId}, not a compare run itself` : `Run ${id} is a single run, not a compare run`,
    groupId
      ? `Apply it with \`od apply ${groupId.slice(0, 8)} <label>\` (\`od runs show ${groupId.slice(0, 8)}\` lists the labels).`
      : "`od apply` and `od discard` take a compare run's id (`od run --agent a,b` or --repeat); `od runs` lists them as compare: …",
  );
}
