import { FFIType, ptr } from "bun:ffi";
import { openLibc } from "../core/os/libc.ts";

/** The two libc calls the server needs that Node's API lacks: flock(2) and getrlimit(2). Undefined where libc cannot be loaded (Windows). */
function load() {
  return openLibc({
    flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
    getrlimit: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 },
  });
}

let libc: ReturnType<typeof load> | null = null;
const symbols = () => (libc === null ? (libc = load()) : libc);

const LOCK_EX = 2;
const LOCK_NB = 4;

/**
 * Takes an exclusive lock on an open file without waiting: true when this
 * process now holds it (until the descriptor is closed, or the process dies:
 * the kernel releases it then, so a lock is never stale), false when another
 * holds it, undefined when the system has no flock.
 */
export function tryLock(fd: number): boolean | undefined {
  const lib = symbols();
  if (!lib) return undefined;
  return lib.flock(fd, LOCK_EX | LOCK_NB) === 0;
}

/** How many files this process may open (RLIMIT_NOFILE's soft limit), when the system says. */
export function fdLimit(): number | undefined {
  const lib = symbols();
  if (!lib) return undefined;
  const limits = new BigUint64Array(2);
  const RLIMIT_NOFILE = process.platform === "darwin" ? 8 : 7;
  if (lib.getrlimit(RLIMIT_NOFILE, ptr(limits)) !== 0) return undefined;
  const soft = limits[0]!;
  return soft > BigInt(Number.MAX_SAFE_INTEGER) ? undefined : Number(soft);
}
