import { read, FFIType as T } from "bun:ffi";
import { closeSync, constants as fs } from "node:fs";
import { constants } from "node:os";
import { openLibc } from "../os/libc.ts";

/**
 * The *at() system calls through bun:ffi, for opening paths beneath a directory
 * handle (beneath.ts). Linux (glibc or musl) and macOS; elsewhere, or when the C
 * library cannot be loaded, `libc()` is undefined. Failures throw an error with
 * the errno's name as `code`, as node:fs does.
 */
export interface Libc {
  /** openat(2): fd, or a throw. A single component with O_NOFOLLOW never follows a link. */
  openat(dirfd: number, path: string, flags: number, mode: number): number;
  /** openat2(2) (Linux 5.6+) with `resolve` flags, when the kernel has it; else undefined. */
  openat2: ((dirfd: number, path: string, flags: number, mode: number, resolve: number) => number) | undefined;
  mkdirat(dirfd: number, path: string, mode: number): void;
  renameat(dirfd: number, from: string, to: string): void;
  unlinkat(dirfd: number, path: string): void;
}

export const O_CLOEXEC = process.platform === "darwin" ? 0x1000000 : 0o2000000;
/** Linux: a handle that names a file without opening it (no device is opened, a symlink is the link itself). */
export const O_PATH = 0o10000000;
export const RESOLVE_NO_MAGICLINKS = 0x02;
export const RESOLVE_NO_SYMLINKS = 0x04;
export const RESOLVE_BENEATH = 0x08;
const SYS_OPENAT2 = 437n; // the same number on every Linux architecture
const AT_FDCWD = -100;

const NAMES = new Map(Object.entries(constants.errno).map(([name, no]) => [no, name]));

export function errnoError(errno: number, syscall: string): NodeJS.ErrnoException {
  const code = NAMES.get(errno) ?? `E${errno}`;
  return Object.assign(new Error(`${code}: ${syscall} failed`), { code, errno: -errno, syscall });
}

const cstr = (s: string) => Buffer.from(`${s}\0`);

/** What is used of the C library, errno's location under either name. */
interface C {
  openat(dirfd: number, path: Buffer, flags: number, mode: number): number;
  mkdirat(dirfd: number, path: Buffer, mode: number): number;
  renameat(fromfd: number, from: Buffer, tofd: number, to: Buffer): number;
  unlinkat(dirfd: number, path: Buffer, flags: number): number;
  syscall(no: bigint, dirfd: number, path: Buffer, how: BigUint64Array, size: bigint): number | bigint;
  errno(): number;
}

function load(): C | undefined {
  const errnoAt = process.platform === "linux" ? "__errno_location" : "__error";
  const c = openLibc({
    openat: { args: [T.i32, T.ptr, T.i32, T.u32], returns: T.i32 },
    mkdirat: { args: [T.i32, T.ptr, T.u32], returns: T.i32 },
    renameat: { args: [T.i32, T.ptr, T.i32, T.ptr], returns: T.i32 },
    unlinkat: { args: [T.i32, T.ptr, T.i32], returns: T.i32 },
    syscall: { args: [T.i64, T.i32, T.ptr, T.ptr, T.u64], returns: T.i64_fast },
    [errnoAt]: { args: [], returns: T.ptr },
  });
  if (!c) return undefined;
  const at = c[errnoAt] as unknown as () => number;
  return { ...(c as unknown as Omit<C, "errno">), errno: () => read.i32(at()) };
}

function bind(c: C): Libc {
  const check = (r: number | bigint, syscall: string): number => {
    if (Number(r) >= 0) return Number(r);
    throw errnoError(c.errno(), syscall);
  };
  const openat2 = (dirfd: number, path: string, flags: number, mode: number, resolve: number) =>
    check(c.syscall(SYS_OPENAT2, dirfd, cstr(path), new BigUint64Array([BigInt(flags), BigInt(mode), BigInt(resolve)]), 24n), "openat2");
  return {
    openat: (dirfd, path, flags, mode) => check(c.openat(dirfd, cstr(path), flags | O_CLOEXEC, mode), "openat"),
    // openat2 wants no mode unless a file is created (EINVAL otherwise)
    openat2:
      process.platform === "linux" && works(openat2)
        ? (d, p, f, m, r) => openat2(d, p, f | O_CLOEXEC, f & fs.O_CREAT ? m : 0, r)
        : undefined,
    mkdirat: (dirfd, path, mode) => void check(c.mkdirat(dirfd, cstr(path), mode), "mkdirat"),
    renameat: (dirfd, from, to) => void check(c.renameat(dirfd, cstr(from), dirfd, cstr(to)), "renameat"),
    unlinkat: (dirfd, path) => void check(c.unlinkat(dirfd, cstr(path), 0), "unlinkat"),
  };
}

/** openat2 may be missing (before Linux 5.6: ENOSYS) or filtered (seccomp: EPERM or ENOSYS): try it once. */
function works(openat2: (dirfd: number, path: string, flags: number, mode: number, resolve: number) => number): boolean {
  try {
    closeSync(openat2(AT_FDCWD, "/", O_CLOEXEC | fs.O_DIRECTORY, 0, RESOLVE_NO_SYMLINKS));
    return true;
  } catch {
    return false;
  }
}

let loaded: Libc | undefined | null = null;

/** The bound C library, loaded once; undefined where there is none to use. */
export function libc(): Libc | undefined {
  if (loaded === null) {
    const c = load();
    loaded = c ? bind(c) : undefined;
  }
  return loaded;
}
