/**
 * od's own git obeys nothing an agent wrote. The agent here is the test itself writing into the
 * workspace (what any agent that can write files can do): a `.git` file pointing at a git dir of its
 * own or at the user's, a config naming filter and textconv commands, hooks, a .gitattributes that
 * applies them. Each of those commands appends to a marker file; od must never run one, must keep the
 * result in the user's repository, leave the user's index and status as they were, and no worktree.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRegistry } from "../../../src/core/agents/registry.ts";
import { validateAdapter } from "../../../src/core/contract/adapter.ts";
import { type ParallelResult, parallel } from "../../../src/core/run/parallel.ts";
import { localChanges } from "../../../src/core/workspace/changes.ts";
import { createWorkspace } from "../../../src/core/workspace/worktree.ts";
import { installFake, tmpdir } from "../../helpers.ts";
import { fakeAdapter } from "../../support/fake-adapter.ts";

const ID = ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"];

function sh(cwd: string, script: string): string {
  const p = Bun.spawnSync(["sh", "-c", script], { cwd, env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" } });
  if (p.exitCode !== 0) throw new Error(`${script}: ${p.stderr}`);
  return p.stdout.toString();
}

/** The user's repository: a.txt and sub/x.txt committed, some work staged; and what the user sees of it. */
function userRepo(tmp: string) {
  const repo = join(tmp, "repo");
  mkdirSync(join(repo, "sub"), { recursive: true });
  writeFileSync(join(repo, "a.txt"), "a\n");
  writeFileSync(join(repo, "sub", "x.txt"), "x\n");
  sh(repo, `git init -q && git add . && git ${ID.join(" ")} commit -qm init`);
  writeFileSync(join(repo, "staged.txt"), "the user's staged work\n");
  sh(repo, "git add staged.txt");
  const state = () => ({
    index: readFileSync(join(repo, ".git", "index")).toString("hex"),
    status: sh(repo, "git --no-optional-locks status --porcelain -z"),
    worktrees: sh(repo, "git worktree list --porcelain"),
  });
  return { repo, state };
}

/** What a hostile agent writes in `dir`: its own git dir whose config and hooks append to `marker`, and a .gitattributes applying them. */
function ownGitDir(dir: string, marker: string): string {
  const run = (what: string) => `echo ${what} >> '${marker}'; cat`;
  sh(dir, `git init -q .agent && git -C .agent ${ID.join(" ")} commit -q --allow-empty -m agent`);
  sh(dir, `git -C .agent config filter.evil.clean "${run("clean")}" && git -C .agent config filter.evil.smudge "${run("smudge")}"`);
  sh(dir, `git -C .agent config filter.evil.required true && git -C .agent config diff.evil.textconv "${run("textconv")}"`);
  for (const hook of ["reference-transaction", "post-index-change", "pre-commit"]) {
    writeFileSync(join(dir, ".agent", ".git", "hooks", hook), `#!/bin/sh\necho ${hook} >> '${marker}'\n`);
    chmodSync(join(dir, ".agent", ".git", "hooks", hook), 0o755);
  }
  writeFileSync(join(dir, ".gitattributes"), "* filter=evil diff=evil\n");
  return join(dir, ".agent", ".git");
}

/** The agent's edits: a.txt changed, new.txt made, and the worktree's `.git` file pointing at `gitDir`. */
function edits(dir: string, gitDir: string) {
  writeFileSync(join(dir, "a.txt"), "agent\n");
  writeFileSync(join(dir, "new.txt"), "new\n");
  rmSync(join(dir, ".git"), { recursive: true, force: true });
  writeFileSync(join(dir, ".git"), `gitdir: ${gitDir}\n`);
}

/** The workspace's changes, kept as od/g/a, then removed: what od does after every compare member. */
async function afterTheAgent(ws: Awaited<ReturnType<typeof createWorkspace>>) {
  const changes = await ws.changes();
  const kept = await ws.keep({ branch: "od/g/a", patchPath: "/nonexistent/a.patch", patchFile: "a.patch" });
  const disposed = await ws.dispose().then(
    () => undefined,
    (err: Error) => err.message,
  );
  return { changes, kept, disposed };
}

describe("od's git after an agent wrote its .git, config and attributes", () => {
  for (const target of ["its own git dir", "the user's git dir"] as const)
    test(`a compare worktree whose .git points at ${target}: no filter, textconv or hook runs; the branch is the user's; index, status and worktrees as they were`, async () => {
      await using tmp = tmpdir();
      const { repo, state } = userRepo(tmp.path);
      const marker = join(tmp.path, "ran");
      const before = state();
      const ws = await createWorkspace(repo, "a", { env: { OD_HOME: join(tmp.path, "home") } });
      const own = ownGitDir(ws.dir, marker);
      edits(ws.dir, target === "its own git dir" ? own : join(repo, ".git"));
      const { changes, kept, disposed } = await afterTheAgent(ws);
      expect(existsSync(marker) ? readFileSync(marker, "utf8") : "").toBe("");
      expect(state()).toEqual(before);
      expect(disposed).toBeUndefined();
      expect(existsSync(ws.dir)).toBe(false);
      expect(changes.files).toEqual(expect.arrayContaining(["a.txt", "new.txt", ".gitattributes"]));
      expect(changes.diff).toContain("diff --git a/new.txt b/new.txt\nnew file mode 100644");
      expect(kept.kept).toMatchObject({ kind: "branch", branch: "od/g/a" });
      const commit = (kept.kept as { commit: string }).commit;
      expect(sh(repo, "git rev-parse --verify -q refs/heads/od/g/a").trim()).toBe(commit);
      expect(sh(repo, `git show ${commit}:new.txt`)).toBe("new\n");
      expect(sh(repo, `git show ${commit}:staged.txt`)).toBe("the user's staged work\n");
    });

  test("a filter driver in the user's own config, applied by a .gitattributes the agent wrote, does not run either", async () => {
    await using tmp = tmpdir();
    const { repo, state } = userRepo(tmp.path);
    const marker = join(tmp.path, "ran");
    sh(
      repo,
      `git config filter.lfsish.clean "echo clean >> '${marker}'; cat" && git config filter.lfsish.smudge "echo smudge >> '${marker}'; cat"`,
    );
    const before = state();
    const ws = await createWorkspace(repo, "a", { env: { OD_HOME: join(tmp.path, "home") } });
    writeFileSync(join(ws.dir, ".gitattributes"), "* filter=lfsish\n");
    writeFileSync(join(ws.dir, "a.txt"), "agent\n");
    const { kept, disposed } = await afterTheAgent(ws);
    expect(existsSync(marker)).toBe(false);
    expect(disposed).toBeUndefined();
    expect(kept.files.map((f) => f.path)).toEqual([".gitattributes", "a.txt"]);
    expect(state()).toEqual(before);
  });

  test("a plain run in a subfolder: its diff is the user's repository's, found before the agent wrote a .git of its own there", async () => {
    await using tmp = tmpdir();
    const { repo } = userRepo(tmp.path);
    const marker = join(tmp.path, "ran");
    const cwd = join(repo, "sub");
    const index = readFileSync(join(repo, ".git", "index"));
    const source = localChanges(cwd);
    await source.snapshot();
    edits(cwd, ownGitDir(cwd, marker));
    writeFileSync(join(cwd, "x.txt"), "agent\n");
    const { diff } = await source.changes();
    expect(existsSync(marker)).toBe(false);
    expect(diff).toContain("diff --git a/sub/x.txt b/sub/x.txt\n");
    expect(diff).toContain("-x\n+agent\n");
    expect(readFileSync(join(repo, ".git", "index"))).toEqual(index);
  });
});

describe("no worktree is left behind", () => {
  const registry = createRegistry([validateAdapter({ ...fakeAdapter, id: "alpha", bin: "alpha" })]);
  /** An agent that points its worktree's .git elsewhere, says so, then fails or waits to be cancelled. */
  function hostile(tmp: string, then: "fail" | "hang") {
    const program = join(tmp, "hostile.ts");
    writeFileSync(
      program,
      `import { rmSync, writeFileSync } from "node:fs";
await Bun.stdin.text();
rmSync(".git", { recursive: true, force: true });
writeFileSync(".git", "gitdir: /nowhere\\n");
writeFileSync("new.txt", "new\\n");
process.stdout.write(JSON.stringify({ t: "text", v: "rewrote" }) + "\\n");
${then === "fail" ? "process.exit(3);" : "setInterval(() => {}, 1 << 30);"}
`,
    );
    // The kernel sandbox would refuse the rewrite (edit mode keeps .git read-only): this proves od's own git
    // against an agent that could make it (full mode, or where the kernel cannot hold the run).
    return { ...installFake(tmp, "alpha", [], program).env, OD_SANDBOX: "off" };
  }

  for (const then of ["fail", "hang"] as const)
    test(`a member that rewrote .git and then ${then === "fail" ? "failed" : "was cancelled"}: its worktree is removed, none is prunable`, async () => {
      await using tmp = tmpdir();
      const { repo, state } = userRepo(tmp.path);
      const env = hostile(tmp.path, then);
      const before = state();
      const controller = new AbortController();
      const results: ParallelResult[] = [];
      for await (const item of parallel([{ agent: "alpha", prompt: "go", cwd: repo }], {
        registry,
        env,
        signal: controller.signal,
        keep: { groupId: "g", dir: join(tmp.path, "g") },
      })) {
        if ("event" in item && item.event.type === "text.delta" && then === "hang") controller.abort();
        if ("result" in item) results.push(item.result);
      }
      expect(results[0]).toMatchObject({ status: then === "fail" ? "failed" : "cancelled", workspace: "worktree" });
      expect(results[0]?.error ?? "").not.toContain("worktree");
      expect(state()).toEqual(before);
    });
});
