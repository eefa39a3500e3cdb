import { copyFileSync, cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative } from "node:path";
import type { Env } from "../contract/request.ts";
import { copyWorkspace } from "./copy.ts";
import { DIFF, findRepo, type Git, type GitTree, git, MAX_DIFF_BYTES, must, openGit, privateIndex } from "./git.ts";
import { commitIndex, type FileStat, keepAsBranch, stage } from "./keep.ts";
import { inTurn, lease, release, removeWorkspace } from "./lease.ts";
import type { Workspace } from "./workspace.ts";

export type { Workspace };

/**
 * A git worktree when `cwd` is in a repository (the user's uncommitted changes applied and untracked
 * files copied, git-ignored ones left out, then all committed as a private baseline, so the agent's
 * own diff is exact), else a plain copy. The user's tree and index are never touched. Recorded in
 * OD_HOME (lease.ts) while it lives, so a crash leaves nothing behind for long.
 */
export async function createWorkspace(cwd: string, label: string, opts: { base?: string; env?: Env } = {}): Promise<Workspace> {
  const env = opts.env ?? process.env;
  // Real (no link on the way): the path git registers, and finds the worktree by again.
  const root = realpathSync(mkdtempSync(join(tmpdir(), `od-ws-${label}-`)));
  const dir = join(root, "work");
  const repo = await findRepo(cwd);
  if (!repo?.workTree || (await hasCommit(repo)) === false) {
    const id = lease(env, { root, dir });
    return copyWorkspace(cwd, root, () => release(env, id));
  }
  const at = { root, dir, repo: repo.gitDir };
  const id = lease(env, at);
  const remove = async () => {
    if (!(await removeWorkspace(at))) throw new Error(`git still lists the worktree ${dir}: od removes it at its next start`);
    release(env, id);
  };
  let work: GitTree;
  let base: string;
  // od's own index, beside the work tree where the agent cannot reach it: what od stages after the run.
  const index = join(root, "index");
  try {
    const user = await openGit(repo);
    const start = opts.base ?? (await user.must(["rev-parse", "--verify", "HEAD^{commit}"])).trim();
    // Checked out by a reset, not by `worktree add`, which would run the user's post-checkout hook.
    await inTurn(repo.gitDir, () => user.must(["worktree", "add", "--detach", "--no-checkout", dir, start]));
    // The worktree's own git dir, read from the `.git` file git just wrote: od's git never reads that file again.
    work = { gitDir: (await must(undefined, ["rev-parse", "--absolute-git-dir"], { cwd: dir })).trim(), workTree: dir };
    const git = await openGit(work);
    await git.must(["reset", "-q", "--hard"]);
    base = opts.base ? start : await baseline(user, git, start, root);
    copyFileSync(join(work.gitDir, "index"), index);
  } catch (err) {
    await remove().catch(() => {}); // nothing registered when the add itself failed
    throw err;
  }
  // After the agent: the config read again (once), every file staged once, for its changes and its kept result.
  let after: Promise<{ git: Git; files: FileStat[] }> | undefined;
  const staged = () => (after ??= openGit(work).then(async (git) => ({ git, files: await stage(git, base, index) })));
  return {
    dir: join(dir, relative(repo.workTree, realpathSync(cwd))),
    kind: "worktree",
    base,
    async keep({ branch }) {
      const { git, files } = await staged();
      return { files, kept: files.length ? await keepAsBranch(git, base, index, branch) : undefined };
    },
    async changes() {
      const { git, files } = await staged();
      const diff = await git.must([...DIFF, "--cached", "--end-of-options", base], { index, maxBytes: MAX_DIFF_BYTES });
      return { files: files.map((f) => f.path), diff };
    },
    dispose: remove,
  };
}

/**
 * The worktree's first commit on top of `head`, which it returns: the user's uncommitted changes
 * applied and untracked files copied (git-ignored ones left out), committed with `write-tree`/
 * `commit-tree` so no hook of the user's runs. The user's repository is read through a private copy
 * of its index (a diff would refresh the index it reads).
 */
async function baseline(user: Git, work: Git, head: string, root: string): Promise<string> {
  const from = user.tree!.workTree!;
  const to = work.tree!.workTree!;
  const scratch = mkdtempSync(join(root, "user-index-"));
  try {
    const index = privateIndex(user.tree!, scratch);
    if (!index) throw new Error(`the index of ${from} could not be read`);
    const pending = await user.must([...DIFF, "--binary", "HEAD"], { index });
    if (pending) await work.must(["apply", "--whitespace=nowarn"], { stdin: pending });
    for (const file of (await user.must(["ls-files", "--others", "--exclude-standard", "-z"], { index })).split("\0").filter(Boolean)) {
      mkdirSync(dirname(join(to, file)), { recursive: true });
      // A link as it is (a relative one then leads inside the worktree); "nested/" is an untracked repository inside: its files come, its own .git does not.
      cpSync(join(from, file), join(to, file), { recursive: true, verbatimSymlinks: true, filter: (src) => basename(src) !== ".git" });
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const index = join(work.tree!.gitDir, "index");
  await work.must(["add", "-A"], { index });
  const commit = await commitIndex(work, head, index, "od baseline");
  await work.must(["update-ref", "--no-deref", "HEAD", commit]);
  return commit;
}

/** Whether the repository's HEAD is a commit yet (a new repository's is not: it gets a plain copy). */
const hasCommit = async (repo: GitTree) => (await git(repo, ["rev-parse", "--verify", "-q", "HEAD^{commit}"])).code === 0;
