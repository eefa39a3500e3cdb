import { findMarked, lookSoon, type Mark, type Since } from "./marked.ts";

export { findMarked, forksSoFar, type Mark, marksReadable, type Since } from "./marked.ts";

/**
 * Finding and ending what a run left behind, by the marks in its environment.
 * A process that leaves the agent's process group (setsid: a daemon, a dev
 * server) escapes every signal sent to the group, but it keeps the
 * environment it was started with, and so do its own children: every agent od
 * spawns carries its run's id (`OD_RUN_ID`, set by run/launch.ts) and its od's
 * owner mark (`OD_OWNER`, set by process.ts), and whatever carries them is the
 * run's. Read from /proc/<pid>/environ, so Linux only: on macOS and Windows
 * there is no cheap way to read another process's environment, and every
 * function here is a no-op (there, the process group and the cancel ladder are
 * what end a run).
 */

/**
 * The variable that marks every process of a run: the launch stage sets it on the agent, and its
 * descendants inherit it, one that leaves the process group too. How od finds what a run left behind.
 */
export const RUN_MARKER = "OD_RUN_ID";
/** Every agent's od: "<od pid>-<random>", one per od process (sentinel.ts). */
export const OWNER_MARKER = "OD_OWNER";

/** Waits of the reap: after SIGTERM (then SIGKILL), and for SIGKILL to be done. */
export interface ReapWaits {
  termMs: number;
  killMs: number;
}
export const REAP_WAITS: ReapWaits = { termMs: 500, killMs: 1000 };
const POLL_MS = 20;

/** The mark of one run: its id, and when given, the od that started it (a library's caller may reuse run ids). */
export function runMark(runId: string, owner?: string): Mark {
  return owner === undefined ? [`${RUN_MARKER}=${runId}`] : [`${RUN_MARKER}=${runId}`, `${OWNER_MARKER}=${owner}`];
}

/**
 * The marks this od handed out that no reap has yet seen gone: while any is, od's exit reaps by its
 * owner mark (sentinel.ts); once every run was reaped clean (a look at /proc found nothing of it
 * left), nothing can carry the owner mark any more (a marked process comes only from od or from a
 * marked process), and the exit need not read every process's environment again. An agent spawned
 * without a run's mark keeps the exit's reap for good.
 */
const outstanding = new Set<string>();
let unmarkedSpawn = false;

/** Called as an agent is spawned with `mark` (or with none: `undefined`). */
export function noteSpawned(mark: Mark | undefined): void {
  if (mark) outstanding.add(mark.join("\0"));
  else unmarkedSpawn = true;
}

/** Whether something od spawned may still carry its owner mark: what the exit's reap is for. */
export function exitReapNeeded(): boolean {
  return unmarkedSpawn || outstanding.size > 0;
}

/**
 * The reap as steps: SIGTERM to every marked process (and to any that appears
 * meanwhile, a child forked late), then SIGKILL to what is left, until none
 * is or the waits are spent. Yields how long to wait before the next look;
 * returns how many processes it found at first.
 */
function* steps(marks: Mark[], waits: ReapWaits, first = findMarked(marks), since?: Since): Generator<number, number> {
  if (first.length === 0) return settled(marks, 0);
  const termed = new Set<number>();
  const start = Date.now();
  for (let left = first; left.length > 0; left = findMarked(marks, since)) {
    const elapsed = Date.now() - start;
    if (elapsed >= waits.termMs + waits.killMs) return first.length; // waits spent: some may live on
    const kill = elapsed >= waits.termMs;
    for (const pid of left)
      if (kill || !termed.has(pid)) {
        termed.add(pid);
        signal(pid, kill ? "SIGKILL" : "SIGTERM");
      }
    yield POLL_MS;
  }
  return settled(marks, first.length);
}

/** `marks` seen gone: their runs no longer need the exit's reap. Returns `found`. */
function settled(marks: Mark[], found: number): number {
  for (const mark of marks) outstanding.delete(mark.join("\0"));
  return found;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {} // ESRCH: gone; EPERM: not ours after all
}

/** Ends every process matching `marks`, SIGTERM first; resolves once none is left or the waits are spent. Returns how many it found. */
export async function reap(marks: Mark[], waits: ReapWaits = REAP_WAITS, since?: Since): Promise<number> {
  const run = steps(marks, waits, await lookSoon(marks, since), since);
  for (let step = run.next(); ; step = run.next()) {
    if (step.done) return step.value;
    await Bun.sleep(step.value);
  }
}

/** `reap`, blocking: for a start-up that must not go on while they live (recovery). */
export function reapSync(marks: Mark[], waits: ReapWaits = REAP_WAITS): number {
  const run = steps(marks, waits);
  for (let step = run.next(); ; step = run.next()) {
    if (step.done) return step.value;
    Bun.sleepSync(step.value);
  }
}

/** SIGKILL to every process matching `marks`, at once: for od's own exit, which cannot wait. */
export function reapNow(marks: Mark[]): void {
  for (let pass = 0; pass < 2; pass++) for (const pid of findMarked(marks)) signal(pid, "SIGKILL");
}
