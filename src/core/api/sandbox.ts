import { closeSync, constants, fstatSync, lstatSync, readSync, realpathSync, type Stats } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { Dir } from "./beneath.ts";

/** A refusal a tool reports to the model (isError), never a crash. */
export class ToolError extends Error {}

const MAX_PATH_CHARS = 4096;

/** Inside `root` (itself included), for absolute normalized paths. */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/**
 * A tool's path, resolved inside the project root (a realpath) or refused:
 * relative to the root, `..` collapsed first, then every existing component's
 * symlinks followed (realpath of the deepest existing ancestor) and the result
 * checked again, so neither `../x`, an absolute path elsewhere, nor a symlink
 * (even a dangling one) leads out. The path returned has no symlink left in it.
 */
export function resolveInside(root: string, input: unknown): string {
  if (typeof input !== "string" || !input.trim()) throw new ToolError("path must be a non-empty string");
  if (input.includes("\0")) throw new ToolError("path contains a NUL byte");
  if (input.length > MAX_PATH_CHARS) throw new ToolError(`path is longer than ${MAX_PATH_CHARS} characters`);
  const target = resolve(root, input);
  if (!isInside(root, target)) throw new ToolError(`${input} is outside the project directory`);
  const rest: string[] = [];
  for (let existing = target; ; existing = dirname(existing)) {
    let real: string;
    try {
      real = realpathSync(existing);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw new ToolError(`cannot resolve ${input}: ${code ?? String(err)}`);
      if (lstatOrUndefined(existing)?.isSymbolicLink())
        throw new ToolError(`${display(root, existing)} is a symlink to something that does not exist`);
      if (existing === root || dirname(existing) === existing) throw new ToolError(`cannot resolve ${input}`);
      rest.unshift(basename(existing));
      continue;
    }
    const full = join(real, ...rest);
    if (!isInside(root, full)) throw new ToolError(`${input} leads outside the project directory (through a symlink)`);
    return full;
  }
}

/** How a path is shown to the model: relative to the root. */
export function display(root: string, path: string): string {
  return relative(root, path) || ".";
}

export function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** What a non-regular file is, for the refusal. */
export function kindOf(st: Stats): string {
  if (st.isDirectory()) return "a directory";
  if (st.isSymbolicLink()) return "a symlink";
  if (st.isFIFO()) return "a named pipe";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  return "not a regular file";
}

/**
 * Runs `fn` with the folder of `full` (a path inside `root` from resolveInside)
 * held open, and the file's name in it. The folders are reached from the root's
 * handle without following any symlink (beneath.ts), so what is used is what was
 * checked: a folder swapped for a link since is refused, never followed out.
 * With `create`, missing folders are made, each beneath its parent's handle.
 */
export function inParent<T>(root: string, full: string, create: boolean, fn: (dir: Dir, name: string) => T): T {
  if (full === root) throw new ToolError(". is a directory, not a regular file");
  const parts = relative(root, full).split(sep);
  const top = Dir.open(root);
  try {
    let dir: Dir;
    try {
      dir = top.sub(parts.slice(0, -1), create);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT") throw new ToolError(`${display(root, full)} does not exist`);
      throw new ToolError(
        `${display(root, dirname(full))} changed while it was ${create ? "written to" : "opened"} (${code ?? String(err)})`,
      );
    }
    try {
      return fn(dir, parts.at(-1)!);
    } finally {
      if (dir !== top) dir.close();
    }
  } finally {
    top.close();
  }
}

/**
 * Reads a regular file of at most `cap` bytes. It is checked before it is
 * opened (a device or a pipe is never opened), opened beneath its folder's
 * handle without following a symlink and without blocking, and checked again
 * on the open descriptor, which is all it is read through.
 */
export function readRegular(root: string, full: string, cap: number): Buffer {
  return inParent(root, full, false, (dir, name) => {
    const before = dir.lstat(name);
    if (!before) throw new ToolError(`${display(root, full)} does not exist`);
    if (!before.isFile()) throw new ToolError(`${display(root, full)} is ${kindOf(before)}, not a regular file`);
    if (before.size > cap) throw new ToolError(`${display(root, full)} is ${before.size} bytes, over the ${cap}-byte limit`);
    let fd: number;
    try {
      fd = dir.file([name], constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOCTTY ?? 0));
    } catch (err) {
      throw new ToolError(`cannot open ${display(root, full)}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
    try {
      const st = fstatSync(fd);
      if (!st.isFile() || st.ino !== before.ino || st.dev !== before.dev)
        throw new ToolError(`${display(root, full)} changed while it was opened`);
      if (st.size > cap) throw new ToolError(`${display(root, full)} is ${st.size} bytes, over the ${cap}-byte limit`);
      return readAll(fd, st.size);
    } finally {
      closeSync(fd);
    }
  });
}

function readAll(fd: number, size: number): Buffer {
  const buf = Buffer.alloc(size);
  let got = 0;
  while (got < buf.length) {
    const n = readSync(fd, buf, got, buf.length - got, got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}
