import { lstatSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import type { Mode } from "../../contract/events.ts";
import { present } from "../cwd-paths.ts";
import { gitDirOf } from "../git-dir.ts";

/**
 * What the kernel lets an agent write, by mode: `read-only` its own state (the CLI's config,
 * session and log folders) but not what in it names commands the CLI runs (its locked state), a
 * private temp folder and the terminal's devices; `edit` the working directory too, but never its
 * `.git` (the folder, or the `.git` file of a worktree and the git dir it names when that lies in
 * a writable place). `full` is not sandboxed at all.
 */
export interface SandboxPolicy {
  /** Folders (everything beneath) and files the agent may write. */
  writable: string[];
  /** Paths kept read-only even beneath a writable folder. */
  readOnly: string[];
}

/** Devices every program writes to (output thrown away, a terminal, randomness); never a disk. */
export const DEVICES = ["/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/ptmx", "/dev/pts"];

export interface PolicyInput {
  mode: Mode;
  /** The working directory, absolute. */
  cwd: string;
  /** The CLI's own state, absolute paths (adapter.state, resolved). */
  state: string[];
  /** The run's private temp folder. */
  tmp: string;
  /** Extra folders the user allows whatever the mode (`OD_SANDBOX_ALLOW`). */
  allow?: string[];
  /** What in the CLI's state names commands it runs (adapter.lockedState, resolved): kept read-only where it exists. */
  locked?: string[];
}

/** The policy of a mode; undefined for `full`, which the kernel does not hold. */
export function policyFor(input: PolicyInput): SandboxPolicy | undefined {
  if (input.mode === "full") return undefined;
  const writable = [...input.state, input.tmp, ...(input.allow ?? []), ...DEVICES];
  // A bind mount keeps only what exists now.
  const locked = (input.locked ?? []).filter(present);
  if (input.mode === "read-only") return { writable: unique(writable), readOnly: unique(locked) };
  return { writable: unique([input.cwd, ...writable]), readOnly: unique([...gitPaths(input.cwd, writable), ...locked]) };
}

/**
 * The `.git` of `cwd` as it is on disk now: the folder, or a worktree's `.git` file and the git dir
 * it names when that dir lies inside `cwd` or another writable place (elsewhere the kernel already
 * keeps it read-only). Nothing when `cwd` has no `.git` of its own.
 */
export function gitPaths(cwd: string, writable: string[]): string[] {
  const dotGit = join(cwd, ".git");
  let isFile: boolean;
  try {
    const st = lstatSync(dotGit);
    if (st.isSymbolicLink()) return [dotGit];
    isFile = st.isFile();
  } catch {
    return [];
  }
  if (!isFile) return [dotGit];
  const named = gitDirOf(dotGit);
  const inside = named !== undefined && [cwd, ...writable].some((w) => isBeneath(named, w));
  return inside ? [dotGit, named] : [dotGit];
}

/** `path` is `dir` or lies beneath it (both absolute). */
export function isBeneath(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

const unique = (paths: string[]) => [...new Set(paths)];
