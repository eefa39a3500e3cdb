import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve, sep } from "node:path";
import { DIFF, findRepoSync, type GitTree, MAX_DIFF_BYTES, openGit, privateIndex } from "./git.ts";

export const MAX_FILES = 20_000;

/** What a run changed in its working directory, for run.result: the files, their diff in a repository, and why not when untracked. */
export interface Changes {
  files: string[];
  diff?: string;
  note?: string;
}

/**
 * Where run.result's files and diff come from: this machine's folder (`localChanges`), or a target's
 * through its engine (core/remote/changes.ts). `snapshot` takes the folder as the agent finds it;
 * `changes` tells what differs since. An `early` source (a round trip away) is asked before the first
 * attempt is launched, so its picture cannot race the agent; `dispose` lets it go when no agent started.
 */
export interface ChangesSource {
  readonly early?: boolean;
  snapshot(): void | Promise<void>;
  changes(): Promise<Changes>;
  dispose?(): Promise<void>;
}

/**
 * This machine's folder: a stat of every file as the agent starts and as it ends, and git's diff of
 * those that changed, in the repository found now, before the run launches its agent (whatever
 * `.git` the agent writes later is never read).
 */
export function localChanges(cwd: string, skip: string[] = []): ChangesSource {
  let before: Map<string, string> | undefined;
  const repo = findRepoSync(cwd);
  return {
    snapshot() {
      before = fingerprint(cwd, skip);
    },
    async changes() {
      const after = before ? fingerprint(cwd, skip) : undefined;
      const files = before && after ? changedFiles(before, after) : [];
      // Deleted files too: git shows a deletion, and a rename as one (its old name is among the files).
      const diff = repo
        ? await gitDiff(
            repo,
            cwd,
            files.filter((f) => !isDotGit(f)),
          )
        : undefined;
      if (before && after) return { files, diff };
      return { files, diff, note: `changes not tracked: the folder has over ${MAX_FILES} files, or could not be read` };
    },
  };
}
const SKIP = new Set([".git", "node_modules"]);
const GIT = "a .git";

/**
 * What each file under dir looks like on disk, size and modification time (bounded;
 * node_modules left out, and a .git only as being there): the check git's index makes. Contents are never
 * read, so a large tree costs one stat per file, not a read of every byte, at the
 * start and the end of every run. A file rewritten with the same bytes counts as changed.
 * Folders in `skip` (absolute; od's own home, whose run logs change as the run goes) are left out too.
 */
export function fingerprint(dir: string, skip: string[] = []): Map<string, string> | undefined {
  const out = new Map<string, string>();
  const skipped = new Set(skip.map((s) => relative(resolve(dir), resolve(s)).split(sep).join("/")).filter((r) => r && !r.startsWith("..")));
  const walk = (rel: string): boolean => {
    for (const d of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${d.name}` : d.name;
      // A .git is there or not, never looked into: one the agent made is a change (git runs the commands its config names).
      if (d.name === ".git") out.set(path, GIT);
      if (SKIP.has(d.name)) continue;
      if (skipped.has(path)) continue;
      if (d.isDirectory()) {
        if (!walk(path)) return false;
      } else if (d.isFile()) {
        if (out.size >= MAX_FILES) return false;
        try {
          const st = statSync(join(dir, path));
          out.set(path, `${st.size}:${st.mtimeMs}`);
        } catch {}
      }
    }
    return true;
  };
  try {
    return walk("") ? out : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The diff of `files` (relative to `cwd`, in `repo`), the new ones included as `git add -N` shows them
 * (deleted and moved ones too); undefined with no git installed. git works on a private copy of the
 * index (the new files' intent-to-add entries, the stat refresh `git diff` writes), removed however it
 * ends: the user's index, and so `git status`, are as they were. Nothing the repository's config names
 * runs (workspace/git.ts), and a name is a name, never a pattern.
 */
export async function gitDiff(repo: GitTree, cwd: string, files: string[]): Promise<string | undefined> {
  if (!files.length) return undefined;
  let scratch: string;
  try {
    scratch = mkdtempSync(join(tmpdir(), "od-index-"));
  } catch {
    return undefined; // no room for the private index: no diff, and the run's result still comes
  }
  try {
    const index = privateIndex(repo, scratch);
    if (!index) return undefined;
    const git = await openGit(repo, cwd);
    const untracked = await git.run(["ls-files", "-z", "--others", "--exclude-standard", "--", ...files], { index });
    const added = untracked.out.split("\0").filter(Boolean);
    if (added.length) await git.run(["add", "--intent-to-add", "--", ...added], { index });
    const r = await git.run([...DIFF, "--find-renames", "--", ...files], { index, maxBytes: MAX_DIFF_BYTES });
    return r.code === 0 && r.out ? r.out : undefined;
  } finally {
    try {
      rmSync(scratch, { recursive: true, force: true, maxRetries: 3 });
    } catch {}
  }
}

/** A `.git` (folder or file), which git takes as no path of the repository's. */
const isDotGit = (path: string): boolean => path === ".git" || path.endsWith("/.git");

/** The files whose fingerprint differs between two snapshots, sorted. */
export function changedFiles(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...new Set([...before.keys(), ...after.keys()])].filter((f) => before.get(f) !== after.get(f)).sort();
}
