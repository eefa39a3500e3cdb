import { readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";

/* A repository's `.git` as it is on disk (the sandbox's policy and od's git read it alike). */

/** The git dir a `.git` file names (`gitdir: <path>`, relative to the file's folder), if it names one. */
export function gitDirOf(dotGitFile: string): string | undefined {
  try {
    const m = readFileSync(dotGitFile, "utf8").match(/^gitdir: (.+?)\r?\n?$/m);
    if (!m) return undefined;
    return isAbsolute(m[1]!) ? resolve(m[1]!) : resolve(dirname(dotGitFile), m[1]!);
  } catch {
    return undefined;
  }
}

/**
 * The work tree's own `.git` is the git dir: the folder itself, or (a linked worktree, a submodule)
 * a file naming it. Not so when the repository's config moves its work tree elsewhere
 * (`core.worktree`, a `.git` that came in an archive): git would take that folder (HOME, say) as the
 * work tree, and a compare's baseline would copy every untracked file in it into a commit.
 */
export function ownGitDir(workTree: string, gitDir: string): boolean {
  const dotGit = join(workTree, ".git");
  try {
    const real = realpathSync(gitDir);
    if (statSync(dotGit).isDirectory()) return realpathSync(dotGit) === real;
    const named = gitDirOf(dotGit);
    return named !== undefined && realpathSync(named) === real;
  } catch {
    return false;
  }
}
