import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { DIFF, git } from "./git.ts";

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

/** git's output of a step that must succeed; else an error naming the step and what git said. */
export async function must(args: string[], cwd: string, opts: { stdin?: string; maxBytes?: number } = {}): Promise<string> {
  const r = await git(args, cwd, opts);
  if (r.code !== 0) throw new Error(`git ${args.join(" ")} failed (exit ${r.code}): ${r.err.trim() || r.out.trim()}`);
  return r.out;
}

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
 * Commits what is in the worktree at `top` (every non-ignored file) on top of its HEAD with
 * `write-tree`/`commit-tree` (no hooks run), and points `refs/heads/<branch>` at it; the ref
 * must not exist yet. Nothing when the agent changed nothing. The user's branch, index and
 * working tree are never touched: the worktree has an index of its own.
 */
export async function keepAsBranch(top: string, branch: string): Promise<{ files: FileStat[]; kept?: Kept }> {
  await must(["add", "-A"], top);
  const files = parseNumstat(await must([...DIFF, "--cached", "--no-renames", "--numstat", "-z", "HEAD"], top));
  if (!files.length) return { files };
  const tree = (await must(["write-tree"], top)).trim();
  const commit = (await must([...GIT_ID, "commit-tree", tree, "-p", "HEAD", "-m", `od: ${branch}`], top)).trim();
  await must(["update-ref", "-m", "od: keep a compare run's result", `refs/heads/${branch}`, commit, ""], top);
  return { files, kept: { kind: "branch", branch, commit } };
}

/** The private repository a plain copy (no git of its own) is tracked with: every file, ignored ones too. */
export const privateGit = (gitDir: string, work: string) => ["--git-dir", gitDir, "--work-tree", work];

/** Starts tracking the copy at `work` in a private repository at `gitDir`: its starting files as the baseline commit. */
export async function trackCopy(gitDir: string, work: string): Promise<void> {
  const g = privateGit(gitDir, work);
  await must(["init", "-q", "--bare", gitDir], work);
  await must([...g, "add", "-A", "-f"], work);
  const tree = (await must([...g, "write-tree"], work)).trim();
  const commit = (await must([...GIT_ID, ...g, "commit-tree", tree, "-m", "od baseline"], work)).trim();
  await must([...g, "update-ref", "HEAD", commit], work);
}

/** Writes the copy's changes since its baseline as a binary-safe patch at `patchPath`; nothing when there are none. */
export async function keepAsPatch(gitDir: string, work: string, patchPath: string): Promise<{ files: FileStat[]; written: boolean }> {
  const g = privateGit(gitDir, work);
  await must([...g, "add", "-A", "-f"], work);
  const files = parseNumstat(await must([...g, ...DIFF, "--cached", "--no-renames", "--numstat", "-z", "HEAD"], work));
  if (!files.length) return { files, written: false };
  const patch = await must([...g, ...DIFF, "--cached", "--no-renames", "--binary", "--full-index", "HEAD"], work);
  mkdirSync(dirname(patchPath), { recursive: true });
  writeFileSync(patchPath, patch);
  return { files, written: true };
}
