import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { DIFF, type Git, must, openGit } from "./git.ts";

/** One changed file with its added and removed line counts (a binary file counts 0 and 0). */
export interface FileStat {
  path: string;
  added: number;
  removed: number;
}

/** How a result is kept: a branch in the user's repository, or a patch file (relative to the group's folder). */
export type Kept = { kind: "branch"; branch: string; commit: string } | { kind: "patch"; file: string };

/** The committer od writes its private commits as (never the user's name, no signing). */
export const GIT_ID = ["-c", "user.name=od", "-c", "user.email=od@localhost", "-c", "commit.gpgsign=false"];

/** `git diff --numstat -z` output as file stats (renames are not detected: a rename is a delete and an add). */
export function parseNumstat(out: string): FileStat[] {
  const stats: FileStat[] = [];
  for (const entry of out.split("\0").filter(Boolean)) {
    const [added, removed, ...rest] = entry.split("\t");
    stats.push({ path: rest.join("\t"), added: Number(added) || 0, removed: Number(removed) || 0 });
  }
  return stats;
}

/**
 * Stages every non-ignored file of the work tree (with `force`, ignored ones too) into `index`, od's
 * own (made before the agent ran, out of its reach), and returns what differs from `base`.
 */
export async function stage(git: Git, base: string, index: string, force = false): Promise<FileStat[]> {
  await git.must(["add", "-A", ...(force ? ["-f"] : [])], { index });
  return parseNumstat(await git.must([...DIFF, "--cached", "--no-renames", "--numstat", "-z", "--end-of-options", base], { index }));
}

/**
 * Commits the staged `index` on top of `base` with `write-tree`/`commit-tree` (no hooks run), and
 * points `refs/heads/<branch>` at it; the ref must not exist yet. The user's branch, index and
 * working tree are never touched.
 */
export async function keepAsBranch(git: Git, base: string, index: string, branch: string): Promise<Kept> {
  const commit = await commitIndex(git, base, index, `od: ${branch}`);
  await git.must(["update-ref", "-m", "od: keep a compare run's result", "--end-of-options", `refs/heads/${branch}`, commit, ""]);
  return { kind: "branch", branch, commit };
}

/** The index as a commit on top of `parent` (none: a root commit). */
export async function commitIndex(git: Git, parent: string | undefined, index: string, message: string): Promise<string> {
  const written = (await git.must(["write-tree"], { index })).trim();
  return (await git.must([...GIT_ID, "commit-tree", written, ...(parent ? ["-p", parent] : []), "-m", message])).trim();
}

/** Starts tracking a plain copy in a private bare repository at `gitDir` (od's own): its starting files, ignored ones too, as the baseline commit. */
export async function trackCopy(gitDir: string, work: string, index: string): Promise<{ git: Git; base: string }> {
  await must({ gitDir }, ["init", "-q", "--bare"], { cwd: work });
  const git = await openGit({ gitDir, workTree: work });
  await git.must(["add", "-A", "-f"], { index });
  return { git, base: await commitIndex(git, undefined, index, "od baseline") };
}

/** The staged changes since `base` as a binary-safe patch at `patchPath`. */
export async function keepAsPatch(git: Git, base: string, index: string, patchPath: string): Promise<void> {
  const patch = await git.must([...DIFF, "--cached", "--no-renames", "--binary", "--full-index", "--end-of-options", base], { index });
  mkdirSync(dirname(patchPath), { recursive: true });
  writeFileSync(patchPath, patch);
}
