import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { lazySchema } from "../contract/lazy.ts";
import type { Env } from "../contract/request.ts";
import { z } from "../contract/zod.ts";
import { odHome } from "../os/paths.ts";
import { git } from "./git.ts";

/**
 * What od leaves nowhere: every private workspace (a git worktree or a plain copy in a temporary
 * folder) is recorded under `OD_HOME/worktrees/<id>.json` before it is made, with the od process
 * that owns it, and the record goes when the workspace is removed. An od that dies on the way
 * (SIGKILL, the machine off) leaves its records behind; the next compare run or `od serve` start
 * removes the workspaces whose owner no longer runs (`recover`).
 */

const Lease = lazySchema(() =>
  z.object({
    /** The temporary folder the workspace is in: removed whole. */
    root: z.string(),
    /** The worktree's folder, as git registered it (absolute, real). */
    dir: z.string(),
    /** The git dir the worktree is registered in (none for a plain copy). */
    repo: z.string().optional(),
    pid: z.number(),
    /** The owner's start time (/proc/<pid>/stat), so a reused pid is not taken for the owner. */
    start: z.string().optional(),
  }),
);
type Lease = z.infer<typeof Lease>;

const leasesDir = (env: Env) => join(odHome(env), "worktrees");

/** Records a workspace about to be made; its id, or undefined when OD_HOME cannot be written (the run goes on, uncovered). */
export function lease(env: Env, at: { root: string; dir: string; repo?: string }): string | undefined {
  const id = crypto.randomUUID();
  const record: Lease = { ...at, pid: process.pid, start: startTime(process.pid) };
  try {
    mkdirSync(leasesDir(env), { recursive: true });
    writeFileSync(join(leasesDir(env), `${id}.json`), `${JSON.stringify(record)}\n`);
    return id;
  } catch {
    return undefined;
  }
}

/** Forgets a workspace once it is removed. */
export function release(env: Env, id: string | undefined): void {
  if (id) rmSync(join(leasesDir(env), `${id}.json`), { force: true });
}

/** Removes every workspace whose od no longer runs, and its record; the folders removed. Never throws. */
export async function recover(env: Env = process.env): Promise<string[]> {
  let names: string[];
  try {
    names = readdirSync(leasesDir(env)).filter((n) => /^[\w-]+\.json$/.test(n));
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const path = join(leasesDir(env), name);
    let record: Lease;
    try {
      record = Lease.parse(JSON.parse(readFileSync(path, "utf8")));
    } catch {
      continue; // half-written by an od that is writing it now, or not ours
    }
    if (owned(record)) continue;
    if (await removeWorkspace(record)) {
      rmSync(path, { force: true });
      removed.push(record.dir);
    }
  }
  return removed;
}

/**
 * Removes a workspace: its folder first (so whatever the agent made of the worktree's `.git` file is
 * gone and git's own check of it cannot refuse), then git's record of the worktree, by its path.
 * True when nothing of it is left.
 */
export async function removeWorkspace(at: { root: string; dir: string; repo?: string }): Promise<boolean> {
  rmSync(at.root, { recursive: true, force: true, maxRetries: 3 });
  if (!at.repo) return true;
  const repo = at.repo;
  const run = (args: string[]) => git({ gitDir: repo }, ["worktree", ...args], { cwd: repo });
  const left = async () => {
    const list = await run(["list", "--porcelain"]);
    // The repository gone, or no git: nothing of ours can be left in it.
    return list.code === 0 && list.out.split("\n").includes(`worktree ${at.dir}`);
  };
  return inTurn(repo, async () => {
    if ((await run(["remove", "--force", at.dir])).code === 0 || !(await left())) return true;
    // Registered but not found by its path (od stopped half-way through adding it): git's own sweep of entries whose folder is gone.
    await run(["prune"]);
    return !(await left());
  });
}

/**
 * git keeps a repository's worktrees in one folder (.git/worktrees) that concurrent `worktree add`
 * and `worktree remove` race on: a remove deletes the folder when it looks empty, or reads an entry
 * another add is half-way through. One repository's adds and removes therefore take turns.
 */
const turns = new Map<string, Promise<unknown>>();
export function inTurn<T>(repo: string, step: () => Promise<T>): Promise<T> {
  const mine = (turns.get(repo) ?? Promise.resolve()).then(step, step);
  const settled = mine.catch(() => {});
  turns.set(repo, settled);
  settled.then(() => turns.get(repo) === settled && turns.delete(repo));
  return mine;
}

/** Whether the od that made the record still runs: the same pid, started at the same time. */
function owned(record: Lease): boolean {
  if (record.pid === process.pid) return record.start === startTime(process.pid);
  try {
    process.kill(record.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  return record.start === undefined || startTime(record.pid) === record.start;
}

/** A process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat); undefined without /proc. */
function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}
