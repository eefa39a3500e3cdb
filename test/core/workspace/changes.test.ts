import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gitDiff, localChanges } from "../../../src/core/workspace/changes.ts";
import { findRepo, findRepoSync } from "../../../src/core/workspace/git.ts";
import { tmpdir } from "../../helpers.ts";

const ID = ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"];

/** A repository under dir with `files` committed (none: a repository with no commits yet). */
function repoIn(dir: string, files: Record<string, string> = {}) {
  const repo = join(dir, "repo");
  mkdirSync(repo);
  const git = (...args: string[]) => Bun.spawnSync(["git", ...args], { cwd: repo }).stdout.toString();
  git("init", "-q");
  for (const [name, text] of Object.entries(files)) writeFileSync(join(repo, name), text);
  if (Object.keys(files).length) {
    git("add", "--", ...Object.keys(files));
    git(...ID, "commit", "-qm", "init");
  }
  const index = join(repo, ".git", "index");
  /** What the user sees of their repository: the index's bytes and `git status`. */
  const state = () => ({
    index: existsSync(index) ? readFileSync(index).toString("hex") : "none",
    status: git("--no-optional-locks", "status", "--porcelain", "-z"),
  });
  return { repo, git, state };
}

/**
 * gitDiff with TMPDIR pointed at a folder of the test's own, so what it leaves
 * there (a temporary index) can be seen; the user's index and status compared around it.
 */
async function diffIn(tmp: string, repo: { repo: string; state: () => unknown }, files: string[]) {
  const scratch = join(tmp, "scratch");
  mkdirSync(scratch, { recursive: true });
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = scratch;
  const before = repo.state();
  try {
    const found = await findRepo(repo.repo);
    const diff = found && (await gitDiff(found, repo.repo, files));
    expect(repo.state()).toEqual(before);
    expect(readdirSync(scratch)).toEqual([]);
    return diff;
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
}

describe("the git diff of a run's changed files", () => {
  test("new files are in it as `git add -N` shows them (binary ones as git shows binaries), ignored ones are not; the index is untouched", async () => {
    await using tmp = tmpdir();
    const r = repoIn(tmp.path, { "a.txt": "one\n", ".gitignore": "*.log\n" });
    writeFileSync(join(r.repo, "staged.txt"), "the user's staged work\n");
    r.git("add", "staged.txt");
    writeFileSync(join(r.repo, "a.txt"), "two\n");
    writeFileSync(join(r.repo, "new café file.txt"), "first\nsecond\n");
    writeFileSync(join(r.repo, "data.bin"), Buffer.from([0, 1, 2, 0, 255]));
    writeFileSync(join(r.repo, "debug.log"), "ignored\n");
    const diff = await diffIn(tmp.path, r, ["a.txt", "data.bin", "debug.log", "new café file.txt"]);
    expect(diff).toStartWith("diff --git a/a.txt b/a.txt\n");
    expect(diff).toContain("\n-one\n+two\n");
    expect(diff).toContain("diff --git a/data.bin b/data.bin\nnew file mode 100644\n");
    expect(diff).toContain("Binary files /dev/null and b/data.bin differ\n");
    expect(diff).toMatch(/diff --git "a\/new caf\\303\\251 file.txt" "b\/new caf\\303\\251 file.txt"\nnew file mode 100644\n/);
    expect(diff).toMatch(/--- \/dev\/null\n\+\+\+ "b\/new caf\\303\\251 file.txt"\t?\n@@ -0,0 \+1,2 @@\n\+first\n\+second\n/);
    expect(diff).not.toContain("debug.log");
    expect(diff).not.toContain("staged.txt");
  });

  test("in a repository with no commits yet, and with no index at all", async () => {
    await using tmp = tmpdir();
    const r = repoIn(tmp.path);
    writeFileSync(join(r.repo, "first.txt"), "hello\n");
    const diff = await diffIn(tmp.path, r, ["first.txt"]);
    expect(diff).toContain("diff --git a/first.txt b/first.txt\nnew file mode 100644\n");
    expect(diff).toContain("--- /dev/null\n+++ b/first.txt\n@@ -0,0 +1 @@\n+hello\n");
    expect(existsSync(join(r.repo, ".git", "index"))).toBe(false);
  });

  test("a deleted file shows as deleted, a moved one as a rename", async () => {
    await using tmp = tmpdir();
    const body = "line one\nline two\nline three\nline four\n";
    const r = repoIn(tmp.path, { "gone.txt": "bye\n", "old name.txt": body });
    rmSync(join(r.repo, "gone.txt"));
    renameSync(join(r.repo, "old name.txt"), join(r.repo, "new name.txt"));
    const diff = await diffIn(tmp.path, r, ["gone.txt", "new name.txt", "old name.txt"]);
    expect(diff).toContain("diff --git a/gone.txt b/gone.txt\ndeleted file mode 100644\n");
    expect(diff).toContain("--- a/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n");
    expect(diff).toContain("rename from old name.txt\nrename to new name.txt\n");
  });

  test("a tracked file rewritten with the same bytes leaves the user's index as it was (git diff would refresh it)", async () => {
    await using tmp = tmpdir();
    const r = repoIn(tmp.path, { "same.txt": "same\n", "b.txt": "b\n" });
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(r.repo, "same.txt"), past, past);
    r.git("update-index", "--refresh");
    writeFileSync(join(r.repo, "same.txt"), "same\n");
    writeFileSync(join(r.repo, "b.txt"), "changed\n");
    expect(await diffIn(tmp.path, r, ["b.txt", "same.txt"])).toStartWith("diff --git a/b.txt b/b.txt\n");
  });

  test("names are names, not patterns; no hook runs, and a split index gains no shared file", async () => {
    await using tmp = tmpdir();
    const r = repoIn(tmp.path, { "a.txt": "one\n" });
    r.git("config", "core.splitIndex", "true");
    r.git("update-index", "--split-index");
    const ran = join(tmp.path, "hook-ran");
    writeFileSync(join(r.repo, ".git", "hooks", "post-index-change"), `#!/bin/sh\ntouch "${ran}"\n`, { mode: 0o755 });
    const shared = () => readdirSync(join(r.repo, ".git")).filter((f) => f.startsWith("sharedindex."));
    const sharedBefore = shared();
    writeFileSync(join(r.repo, "a.txt"), "the user's own edit, not the agent's\n");
    writeFileSync(join(r.repo, "*.txt"), "a star\n");
    const diff = await diffIn(tmp.path, r, ["*.txt"]);
    expect(diff).toContain("+++ b/*.txt\n@@ -0,0 +1 @@\n+a star\n");
    expect(diff).not.toContain("a/a.txt");
    expect(existsSync(ran)).toBe(false);
    expect(shared()).toEqual(sharedBefore);
  });

  test("outside a repository there is no diff, and nothing is left behind", async () => {
    await using tmp = tmpdir();
    const dir = join(tmp.path, "repo");
    mkdirSync(dir);
    writeFileSync(join(dir, "a.txt"), "a\n");
    expect(await diffIn(tmp.path, { repo: dir, state: () => readdirSync(dir) }, ["a.txt"])).toBeUndefined();
  });
});

describe("a .git the agent made", () => {
  test("is among the run's changed files (its config would name commands git runs there), and the diff of the rest still comes", async () => {
    // In a repository and in a plain folder: the repository's own .git, there before, is not a change.
    await using tmp = tmpdir();
    const r = repoIn(tmp.path, { "a.txt": "one\n" });
    const plain = join(tmp.path, "plain");
    mkdirSync(plain);
    for (const dir of [r.repo, plain]) {
      const source = localChanges(dir);
      source.snapshot();
      mkdirSync(join(dir, "sub", ".git"), { recursive: true });
      writeFileSync(join(dir, "sub", ".git", "config"), "[core]\n\tfsmonitor = touch planted\n");
      writeFileSync(join(dir, ".git-not"), "x\n"); // a name like it is a file like any other
      writeFileSync(join(dir, "b.txt"), "agent\n");
      const got = await source.changes();
      expect(got.files).toEqual([".git-not", "b.txt", "sub/.git"]);
      if (dir === r.repo) expect(got.diff).toContain("+agent");
    }
  });
});

describe("finding a run's repository", () => {
  /** findRepo and findRepoSync from `cwd` with a PATH whose git notes each call and answers as none. */
  async function withCountingGit(tmp: string, cwd: string) {
    const bin = join(tmp, "bin");
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, "git"), `#!/bin/sh\necho "$*" >> "${tmp}/git.calls"\nexit 128\n`, { mode: 0o755 });
    const saved = process.env.PATH;
    process.env.PATH = `${bin}:/usr/bin:/bin`;
    try {
      const found = [await findRepo(cwd), findRepoSync(cwd)];
      const calls = existsSync(join(tmp, "git.calls")) ? readFileSync(join(tmp, "git.calls"), "utf8").trim().split("\n") : [];
      return { found, calls: calls.length };
    } finally {
      process.env.PATH = saved;
    }
  }

  test("with no .git in its folder or above, git is not asked: there is none", async () => {
    await using tmp = tmpdir();
    const deep = join(tmp.path, "a", "b");
    mkdirSync(deep, { recursive: true });
    expect(await withCountingGit(tmp.path, deep)).toEqual({ found: [undefined, undefined], calls: 0 });
  });

  test("a repository whose own config moves its work tree elsewhere (core.worktree) is not the folder's", async () => {
    // A .git that came in an archive: with core.worktree = the folder above, git would take HOME (say)
    // as the work tree, and a compare's baseline would copy every untracked file there into a commit.
    await using tmp = tmpdir();
    const r = repoIn(tmp.path, { "a.txt": "one\n" });
    writeFileSync(join(tmp.path, "secret.txt"), "the user's own\n");
    Bun.spawnSync(["git", "config", "core.worktree", tmp.path], { cwd: r.repo });
    expect(Bun.spawnSync(["git", "rev-parse", "--show-toplevel"], { cwd: r.repo }).stdout.toString().trim()).toBe(tmp.path); // git itself would
    expect([await findRepo(r.repo), findRepoSync(r.repo)]).toEqual([undefined, undefined]);
    // A linked worktree's .git file names its own git dir: that is still its repository.
    const linked = join(tmp.path, "linked");
    Bun.spawnSync(["git", "config", "--unset", "core.worktree"], { cwd: r.repo });
    Bun.spawnSync(["git", "worktree", "add", "-q", linked], { cwd: r.repo });
    expect(findRepoSync(linked)).toMatchObject({ workTree: linked });
  });

  test("with a .git above (a folder or a gitfile), git decides", async () => {
    await using tmp = tmpdir();
    const deep = join(tmp.path, "a", "b");
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(tmp.path, "a", ".git"), "gitdir: /nowhere\n");
    expect(await withCountingGit(tmp.path, deep)).toEqual({ found: [undefined, undefined], calls: 2 });
    const r = repoIn(tmp.path, { "a.txt": "one\n" });
    expect(findRepoSync(join(r.repo))).toMatchObject({ workTree: r.repo });
  });
});
