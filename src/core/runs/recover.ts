import { existsSync } from "node:fs";
import { join } from "node:path";
import { canResumeWith } from "../agents/registry.ts";
import { reapSync, runMark } from "../os/reap.ts";
import { closingEvents } from "../run/envelope.ts";
import { type Group, readGroup, writeGroup } from "../store/groups.ts";
import { processAlive } from "../store/summary.ts";
import { recover as recoverWorkspaces } from "../workspace/lease.ts";
import type { RunsCore as Runs } from "./types.ts";

export interface Recovered {
  /** Runs a dead od left live, now ended (failed, with the reason). */
  runs: string[];
  /** Compare runs a dead od left live, now marked interrupted. */
  groups: string[];
  /** Workspaces (worktrees, copies) a dead od left behind, removed (git takes its time: this settles later). */
  workspaces: Promise<string[]>;
}

/**
 * What an od that died (killed, the machine off) left live is ended, once, by the next od that
 * takes the home over (`od serve` as it starts): the processes its runs left are ended (by their
 * marks), each run gets its closing events (an error saying why, its one run.finished), each
 * compare run is marked interrupted with its members, and the workspaces it made are removed. A
 * run or group whose od is alive (an `od run` in a terminal) is that od's, and left alone.
 */
export function recoverAbandoned(runs: Runs, reason = "the od that drove this run stopped while it was live"): Recovered {
  const { log, registry } = runs.deps;
  const abandoned = (pid: unknown) => typeof pid !== "number" || (pid !== process.pid && !processAlive(pid));
  const open: string[] = [];
  for (const runId of log.list(Number.MAX_SAFE_INTEGER)) {
    if (runs.live.has(runId) || !abandoned(log.request(runId)?.pid)) continue;
    const events = log.read(runId);
    if (!events.some((e) => e.type === "run.finished")) open.push(runId);
  }
  // What the dead od's agents left running ends first: a run said failed runs no more.
  if (open.length) reapSync(open.map((id) => runMark(id)));
  for (const runId of open) {
    log.seal(runId);
    const events = log.read(runId);
    const session = events.findLast((e) => e.type === "session");
    const started = events.find((e) => e.type === "run.started");
    const sessionId = session?.type === "session" ? session.sessionId : undefined;
    const agent = started?.type === "run.started" ? started.agent : undefined;
    for (const e of closingEvents(runId, events.at(-1)?.seq ?? -1, {
      code: "AGENT_CRASHED",
      message: reason,
      hint: "Start the run again.",
      startedAt: events[0]?.ts,
      sessionId,
      resumable: agent !== undefined && canResumeWith(registry, agent),
    }))
      log.append(e);
  }
  const groups = interruptGroups(runs, abandoned);
  const workspaces = recoverWorkspaces(runs.deps.env).catch(() => []);
  return { runs: open, groups, workspaces };
}

/** Groups still `running` whose od is gone: interrupted, and so is each member that had not ended. */
function interruptGroups(runs: Runs, abandoned: (pid: unknown) => boolean): string[] {
  const { dir } = runs.deps.log;
  const ended: string[] = [];
  for (const name of runs.deps.log.entries(Number.MAX_SAFE_INTEGER, (n) => existsSync(join(dir, n, "group.json")))) {
    const group = readGroup(dir, name);
    if (group?.status !== "running" || !abandoned(group.owner?.pid)) continue;
    const members = group.members.map((m) =>
      m.status === "queued" || m.status === "running"
        ? { ...m, status: "interrupted" as const, note: "its od stopped before it ended" }
        : m,
    );
    const record: Group = { ...group, status: "interrupted", members };
    writeGroup(dir, record);
    ended.push(group.id);
  }
  return ended;
}
