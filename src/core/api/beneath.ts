import { closeSync, constants, existsSync, fstatSync, lstatSync, mkdirSync, openSync, renameSync, type Stats, unlinkSync } from "node:fs";
import { join } from "node:path";
import { type Libc, libc, O_PATH, RESOLVE_BENEATH, RESOLVE_NO_MAGICLINKS, RESOLVE_NO_SYMLINKS } from "./libc.ts";

/**
 * Files reached beneath a directory handle without following any symlink on
 * the way or at the end: what a path names is decided when it is opened, not
 * when it was checked, so a folder swapped for a link that leads out between
 * the two is refused (ELOOP) instead of followed. How, best first:
 *
 * - openat2: Linux 5.6+, the whole path in one call with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS;
 * - openat: openat(2) with O_NOFOLLOW per component, through bun:ffi (Linux, macOS);
 * - procfs: node:fs on /proc/self/fd/<dir>/<name>, the kernel's own handle-relative path (Linux without ffi);
 * - path: node:fs on plain paths, checked but not race-free (Windows, which has no *at calls to use).
 */
export type Backend = "openat2" | "openat" | "procfs" | "path";

const { O_RDONLY, O_NOFOLLOW = 0, O_DIRECTORY = 0 } = constants;
const DIR = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
/** Made folders get what mkdir -p gives them (before the umask). */
const DIR_MODE = 0o777;

/** One component beneath a directory handle, as each backend does it. */
interface Ops {
  name: Backend;
  root(path: string): number;
  /** A component that must be a real directory (not a link): its fd, or -1 where handles are paths. */
  dir(at: Dir, name: string): number;
  open(at: Dir, name: string, flags: number, mode: number): number;
  /** The whole relative path in one call, when the backend can. */
  openPath?(at: Dir, rel: string, flags: number, mode: number): number;
  /**
   * The entry itself, without opening it (a device's driver is never called). On macOS, which has
   * no O_PATH, by its path: a stat only, which the caller checks against the opened handle's.
   */
  lstat(at: Dir, name: string): Stats;
  mkdir(at: Dir, name: string): void;
  rename(at: Dir, from: string, to: string): void;
  unlink(at: Dir, name: string): void;
}

function fdOps(c: Libc, name: "openat2" | "openat"): Ops {
  const openat2 = name === "openat2" ? c.openat2 : undefined;
  return {
    name,
    root: (path) => openSync(path, O_RDONLY | O_DIRECTORY),
    dir: (at, n) => c.openat(at.fd, n, DIR, 0),
    open: (at, n, flags, mode) => c.openat(at.fd, n, flags | O_NOFOLLOW, mode),
    openPath:
      openat2 &&
      ((at, rel, flags, mode) => openat2(at.fd, rel, flags, mode, RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS)),
    lstat:
      process.platform === "linux"
        ? (at, n) => fstatOf(c.openat(at.fd, n, O_PATH | O_NOFOLLOW, 0))
        : (at, n) => lstatSync(join(at.path, n)),
    mkdir: (at, n) => c.mkdirat(at.fd, n, DIR_MODE),
    rename: (at, from, to) => c.renameat(at.fd, from, to),
    unlink: (at, n) => c.unlinkat(at.fd, n),
  };
}

/** What an O_PATH handle names (Linux: the entry itself, nothing opened), the handle closed. */
function fstatOf(fd: number): Stats {
  try {
    return fstatSync(fd);
  } finally {
    closeSync(fd);
  }
}

function procfsOps(): Ops {
  const at = (d: Dir, n: string) => `/proc/self/fd/${d.fd}/${n}`;
  return {
    name: "procfs",
    root: (path) => openSync(path, O_RDONLY | O_DIRECTORY),
    dir: (d, n) => openSync(at(d, n), DIR),
    open: (d, n, flags, mode) => openSync(at(d, n), flags | O_NOFOLLOW, mode),
    lstat: (d, n) => lstatSync(at(d, n)),
    mkdir: (d, n) => mkdirSync(at(d, n), DIR_MODE),
    rename: (d, from, to) => renameSync(at(d, from), at(d, to)),
    unlink: (d, n) => unlinkSync(at(d, n)),
  };
}

function pathOps(): Ops {
  return {
    name: "path",
    root: () => -1,
    dir: (d, n) => {
      const st = lstatSync(join(d.path, n));
      if (!st.isDirectory()) throw Object.assign(new Error(`${n} is not a directory`), { code: st.isSymbolicLink() ? "ELOOP" : "ENOTDIR" });
      return -1;
    },
    open: (d, n, flags, mode) => openSync(join(d.path, n), flags | O_NOFOLLOW, mode),
    lstat: (d, n) => lstatSync(join(d.path, n)),
    mkdir: (d, n) => mkdirSync(join(d.path, n), DIR_MODE),
    rename: (d, from, to) => renameSync(join(d.path, from), join(d.path, to)),
    unlink: (d, n) => unlinkSync(join(d.path, n)),
  };
}

/** The backends this machine has, best first. */
export function backends(): Backend[] {
  const c = libc();
  const have: Backend[] = [];
  if (c?.openat2) have.push("openat2");
  if (c) have.push("openat");
  if (process.platform === "linux" && existsSync("/proc/self/fd")) have.push("procfs");
  return [...have, "path"];
}

let current: Ops | undefined;

/** Switches to another backend (tests), or back to the best one (none given). */
export function useBackend(name?: Backend): void {
  const pick = name ?? backends()[0]!;
  if (pick === "openat2" || pick === "openat") current = fdOps(libc()!, pick);
  else current = pick === "procfs" ? procfsOps() : pathOps();
}

function ops(): Ops {
  if (!current) useBackend();
  return current!;
}

export function backend(): Backend {
  return ops().name;
}

const code = (err: unknown) => (err as NodeJS.ErrnoException)?.code;

/** A directory held open; everything below it is reached from the handle. Close it when done. */
export class Dir {
  private constructor(
    readonly fd: number,
    readonly path: string,
    private readonly ops: Ops,
  ) {}

  /** The root itself is opened by its path: it is the run's cwd (a realpath), trusted. */
  static open(root: string): Dir {
    const o = ops();
    return new Dir(o.root(root), root, o);
  }

  /** The file at `parts` (components, no "." or "..") beneath this directory: an fd, no link followed on the way. */
  file(parts: readonly string[], flags: number, mode = 0o666): number {
    checkNames(parts);
    if (parts.length === 0) throw new Error("no file named");
    if (this.ops.openPath) return this.ops.openPath(this, parts.join("/"), flags | O_NOFOLLOW, mode);
    const parent = this.sub(parts.slice(0, -1));
    try {
      return this.ops.open(parent, parts.at(-1)!, flags, mode);
    } finally {
      if (parent !== this) parent.close();
    }
  }

  /** The directory at `parts` beneath this one (this one for none); with `create`, each missing one is made beneath its parent's handle. */
  sub(parts: readonly string[], create = false): Dir {
    checkNames(parts);
    if (parts.length === 0) return this;
    if (this.ops.openPath)
      try {
        return new Dir(this.ops.openPath(this, parts.join("/"), DIR, 0), join(this.path, ...parts), this.ops);
      } catch (err) {
        if (!create || code(err) !== "ENOENT") throw err;
      }
    let at: Dir = this;
    for (const name of parts) {
      const next = at.child(name, create);
      if (at !== this) at.close();
      at = next;
    }
    return at;
  }

  private child(name: string, create: boolean): Dir {
    try {
      return new Dir(this.ops.dir(this, name), join(this.path, name), this.ops);
    } catch (err) {
      if (!create || code(err) !== "ENOENT") throw err;
    }
    try {
      this.ops.mkdir(this, name);
    } catch (err) {
      if (code(err) !== "EEXIST") throw err;
    }
    return new Dir(this.ops.dir(this, name), join(this.path, name), this.ops);
  }

  /** What the entry `name` is (a symlink as itself), or undefined when there is none. */
  lstat(name: string): Stats | undefined {
    checkNames([name]);
    try {
      return this.ops.lstat(this, name);
    } catch (err) {
      if (code(err) === "ENOENT") return undefined;
      throw err;
    }
  }

  rename(from: string, to: string): void {
    checkNames([from, to]);
    this.ops.rename(this, from, to);
  }

  unlink(name: string): void {
    checkNames([name]);
    this.ops.unlink(this, name);
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
  }
}

/** Components of a normalized relative path: a "..", ".", empty or slashed one is a bug in the caller, refused. */
function checkNames(parts: readonly string[]): void {
  for (const p of parts)
    if (!p || p === "." || p === ".." || p.includes("/") || p.includes("\\") || p.includes("\0"))
      throw new Error(`not a path component: ${JSON.stringify(p)}`);
}
