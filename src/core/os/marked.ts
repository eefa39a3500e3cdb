import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";

/**
 * Finding the processes that carry a mark (reap.ts): a walk of /proc reading each one's environment.
 * Linux only: elsewhere there is no cheap way to read another process's environment.
 */

/** Where a process's environment can be read: only there do marks find anything. */
export const marksReadable = process.platform === "linux";

/** A process matches a mark when its environment holds every one of the mark's entries ("KEY=value"), exactly. */
export type Mark = string[];

/** Live processes of this user, od's own aside, that match any of `marks`. Races (a process gone meanwhile, one not ours) are skipped. */
export function findMarked(marks: Mark[], since?: Since): number[] {
  return findEach([{ marks, since }])[0]!;
}

/**
 * `findMarked` for several reaps in one walk of /proc: for each, what matches its marks. A walk
 * reads the environment of every process it looks at (a few microseconds each): `od serve` ending
 * 128 runs walked /proc 128 times over some 260 processes (0.8 s in its CPU profile).
 */
function findEach(asks: Array<{ marks: Mark[]; since?: Since }>): number[][] {
  const found = asks.map((): number[] => []);
  const wanted = asks
    .map(({ marks, since }, i) => ({
      i,
      from: firstPid(since),
      needles: marks.map((mark) => mark.map((entry) => Buffer.from(`${entry}\0`))),
    }))
    .filter((a) => a.needles.length > 0);
  if (!marksReadable || wanted.length === 0) return found;
  const lowest = Math.min(...wanted.map((a) => a.from));
  const uid = process.getuid?.();
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return found;
  }
  for (const name of names) {
    const first = name.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    const pid = Number(name);
    if (pid < lowest || pid === process.pid) continue;
    try {
      if (uid !== undefined && statSync(`/proc/${name}`).uid !== uid) continue;
      // Empty for a zombie (already dead) and a kernel thread.
      const environ = readEnviron(name);
      for (const { i, from, needles } of wanted)
        if (pid >= from && needles.some((mark) => mark.every((entry) => holds(environ, entry)))) found[i]!.push(pid);
    } catch {} // ENOENT: gone meanwhile; EACCES/EPERM: not ours to read
  }
  return found;
}

/**
 * Where a reap may begin: its run's agent, and how many processes the kernel had made just before
 * it was spawned. Whatever carries the run's mark is the agent or was made after it, and Linux
 * numbers processes upwards from the last one it made, so each has a pid above the agent's, unless
 * the numbers went round (past pid_max) since: that takes pid_max − pid new processes or threads at
 * least, and /proc/stat counts every one. A busy `od serve` then reads the environments of the
 * processes started since the run's agent, not of all, and `od run` of next to none.
 */
export interface Since {
  pid: number;
  forks: number;
}

/** Processes and threads the kernel has made since boot (/proc/stat's "processes"); undefined where unknown. */
export function forksSoFar(): number | undefined {
  if (!marksReadable) return undefined;
  try {
    const n = Number(/^processes (\d+)$/m.exec(readFileSync("/proc/stat", "latin1"))?.[1]);
    return Number.isSafeInteger(n) ? n : undefined;
  } catch {
    return undefined;
  }
}

let pidMax: number | undefined;

/** The lowest pid a reap from `since` must look at: the agent's while no wrap can have come since, else 0 (every process). */
function firstPid(since: Since | undefined): number {
  const now = since && forksSoFar();
  if (!since || now === undefined) return 0;
  try {
    pidMax ??= Number(readFileSync("/proc/sys/kernel/pid_max", "latin1").trim());
  } catch {
    return 0;
  }
  return Number.isSafeInteger(pidMax) && now - since.forks < pidMax - since.pid ? since.pid : 0;
}

/** One buffer for every environment read: a walk allocates no buffer per process it reads. */
let environBuf = Buffer.allocUnsafe(16 * 1024);

/** /proc/<pid>/environ, as a view of the shared buffer (valid until the next read), grown for a larger one. */
function readEnviron(pid: string): Buffer {
  const fd = openSync(`/proc/${pid}/environ`, "r");
  try {
    let length = 0;
    for (;;) {
      if (length === environBuf.length) environBuf = Buffer.concat([environBuf, Buffer.allocUnsafe(environBuf.length)]);
      const n = readSync(fd, environBuf, length, environBuf.length - length, null);
      if (n === 0) return environBuf.subarray(0, length);
      length += n;
    }
  } finally {
    closeSync(fd);
  }
}

/** Reaps waiting for their first look, and the walk that will answer them all (at the next turn of the loop). */
let waiting: Array<{ marks: Mark[]; since?: Since; done: (pids: number[]) => void }> = [];

/** The first look of a reap, shared with every other reap asking in the same turn of the loop. */
export function lookSoon(marks: Mark[], since?: Since): Promise<number[]> {
  return new Promise((done) => {
    waiting.push({ marks, since, done });
    if (waiting.length > 1) return;
    setImmediate(() => {
      const asked = waiting;
      waiting = [];
      const found = findEach(asked);
      for (const [i, a] of asked.entries()) a.done(found[i]!);
    });
  });
}

/** Whether NUL-separated `environ` holds `entry` (which ends with its NUL) as a whole entry. */
function holds(environ: Buffer, entry: Buffer): boolean {
  for (let at = environ.indexOf(entry); at >= 0; at = environ.indexOf(entry, at + 1)) if (at === 0 || environ[at - 1] === 0) return true;
  // The last entry may lack its NUL (a process that rewrote its own environment).
  const bare = entry.subarray(0, -1);
  const at = environ.length - bare.length;
  return at >= 0 && (at === 0 || environ[at - 1] === 0) && environ.subarray(at).equals(bare);
}
