import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative } from "node:path";
import { DIFF, git, MAX_DIFF_BYTES } from "./git.ts";
import { type FileStat, GIT_ID, type Kept, keepAsBranch, keepAsPatch, must, trackCopy } from "./keep.ts";

/** A private copy of a working directory for one agent, and what that agent changed in it. */
export interface Workspace {
  dir: string;
  kind: "worktree" | "copy";
  /** The commit the worktree starts from (HEAD plus the user's uncommitted and untracked files). */
  base?: string;
  changes(): Promise<{ files: string[]; diff?: string }>;
  /**
   * Keeps what the agent changed: a worktree as the branch `branch` on top of `base`, a copy as a
   * patch at `patchPath`. `kept` is undefined when nothing changed (or a copy cannot be tracked: `note`).
   */
  keep(target: { branch: string; patchPath: string; patchFile: string }): Promise<{ files: FileStat[]; kept?: Kept; note?: string }>;
  dispose(): Promise<void>;
}

/**
 * git keeps a repository's worktrees in one folder (.git/worktrees) that
 * concurrent `worktree add` and `worktree remove` race on: a remove deletes the
 * folder when it looks empty, or reads an entry another add is half-way
 * through. One repository's adds and removes therefore take turns.
 */
const turns = new Map<string, Promise<unknown>>();
function inTurn<T>(repo: string, step: () => Promise<T>): Promise<T> {
  const mine = (turns.get(repo) ?? Promise.resolve()).then(step, step);
  const settled = mine.catch(() => {});
  turns.set(repo, settled);
  settled.then(() => turns.get(repo) === settled && turns.delete(repo));
  return mine;
}

/**
 * A git worktree when `cwd` is in a repository (the user's uncommitted changes
 * applied and untracked files copied, git-ignored ones left out, then all
 * committed as a private baseline, so the agent's own diff is exact), else a
 * plain copy. The user's tree is never touched.
 */
export async function createWorkspace(cwd: string, label: string, opts: { base?: string } = {}): Promise<Workspace> {
  const root = mkdtempSync(join(tmpdir(), `od-ws-${label}-`));
  const dir = join(root, "work");
  const top = await git(["rev-parse", "--show-toplevel"], cwd);
  if (top.code === 0 && (await git(["rev-parse", "--verify", "HEAD"], cwd)).code === 0) {
    const repo = top.out.trim();
    const remove = () => inTurn(repo, () => must(["worktree", "remove", "--force", dir], repo));
    let base: string;
    try {
      // Checked out by a reset, not by `worktree add`, which would run the user's post-checkout hook.
      await inTurn(repo, () => must(["worktree", "add", "--detach", "--no-checkout", dir, opts.base ?? "HEAD"], repo));
      await must(["reset", "-q", "--hard"], dir);
      if (!opts.base) await baseline(repo, dir);
      base = (await must(["rev-parse", "HEAD"], dir)).trim();
    } catch (err) {
      await remove().catch(() => {}); // nothing to remove when the add itself failed
      rmSync(root, { recursive: true, force: true });
      throw err;
    }
    const sub = relative(repo, cwd);
    return {
      dir: join(dir, sub),
      kind: "worktree",
      base,
      keep: ({ branch }) => keepAsBranch(dir, branch),
      async changes() {
        await must(["add", "-A", "-N"], dir);
        const files = (await must([...DIFF, "--name-only", "-z", "HEAD"], dir)).split("\0").filter(Boolean);
        return { files, diff: await must([...DIFF, "HEAD"], dir, { maxBytes: MAX_DIFF_BYTES }) };
      },
      async dispose() {
        try {
          await remove();
        } finally {
          rmSync(root, { recursive: true, force: true });
        }
      },
    };
  }
  // A link is copied as it is: a relative one (`link -> real`) then leads inside the copy, never back to the user's folder.
  cpSync(cwd, dir, { recursive: true, verbatimSymlinks: true });
  const before = fingerprint(dir);
  const gitDir = join(root, "git");
  const tracked = await trackCopy(gitDir, dir).then(
    () => undefined,
    (err: Error) => `its result was not kept: ${err.message}`,
  );
  return {
    dir,
    kind: "copy",
    async keep({ patchPath, patchFile }) {
      if (tracked) return { files: changed(before, fingerprint(dir)).map((path) => ({ path, added: 0, removed: 0 })), note: tracked };
      const { files, written } = await keepAsPatch(gitDir, dir, patchPath);
      return { files, kept: written ? { kind: "patch", file: patchFile } : undefined };
    },
    async changes() {
      return { files: changed(before, fingerprint(dir)) };
    },
    async dispose() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

const changed = (before: Map<string, string>, after: Map<string, string>) =>
  [...new Set([...before.keys(), ...after.keys()])].filter((f) => before.get(f) !== after.get(f)).sort();

/** Every file under dir with a content hash, and every link with its target: a link is never followed (into the copy or out of it). */
function fingerprint(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    for (const d of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const name = rel ? `${rel}/${d.name}` : d.name;
      try {
        if (d.isDirectory()) walk(name);
        else if (d.isSymbolicLink()) out.set(name, `link:${readlinkSync(join(dir, name))}`);
        else if (d.isFile()) out.set(name, Bun.hash(readFileSync(join(dir, name))).toString(16));
      } catch {}
    }
  };
  walk("");
  return out;
}

/**
 * The worktree's first commit: the user's uncommitted changes applied and untracked files copied
 * (git-ignored ones left out), committed with `write-tree`/`commit-tree` so no hook of the user's runs.
 */
async function baseline(repo: string, dir: string): Promise<void> {
  const pending = await must([...DIFF, "--binary", "HEAD"], repo);
  if (pending) await must(["apply", "--whitespace=nowarn"], dir, { stdin: pending });
  for (const file of (await must(["ls-files", "--others", "--exclude-standard", "-z"], repo)).split("\0").filter(Boolean)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    // "nested/" is an untracked repository inside: its files come, its own .git does not.
    cpSync(join(repo, file), join(dir, file), { recursive: true, verbatimSymlinks: true, filter: (src) => basename(src) !== ".git" });
  }
  await must(["add", "-A"], dir);
  const tree = (await must(["write-tree"], dir)).trim();
  const commit = (await must([...GIT_ID, "commit-tree", tree, "-p", "HEAD", "-m", "od baseline"], dir)).trim();
  await must(["update-ref", "--no-deref", "HEAD", commit], dir);
}
