/** `od run --result` in a git repository, compiled: the agent's new files are in the diff, and the user's index is left as it was. */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DIST_OD, FIXTURES, installFake, tmpdir } from "../helpers.ts";

describe("od run --result in a git repository (compiled)", () => {
  test("a file the agent created is in the diff with its content; od's home is not; the index is untouched", async () => {
    await using tmp = tmpdir();
    const repo = join(tmp.path, "repo");
    mkdirSync(repo);
    const git = (...args: string[]) => Bun.spawnSync(["git", ...args], { cwd: repo }).stdout.toString();
    git("init", "-q");
    writeFileSync(join(repo, "README.md"), "hello\n");
    git("add", "README.md");
    git("-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", "commit", "-qm", "init");
    const fake = installFake(tmp.path, "claude", [
      { read: "all" },
      { touch: "made by agent.txt" },
      { replay: join(FIXTURES, "claude/plain.jsonl") },
    ]);
    // od's home inside the tree: what od keeps there is not the agent's work.
    const env = { ...fake.env, NO_COLOR: "1", OD_HOME: join(repo, ".od-home") };
    const index = readFileSync(join(repo, ".git", "index"));
    const p = Bun.spawnSync([DIST_OD, "run", "--agent", "claude", "--result", "--cwd", repo, "write a file"], { env, stdin: "ignore" });
    const err = p.stderr.toString();
    expect(p.exitCode).toBe(0);
    expect(err).toContain("od: files changed: made by agent.txt\n");
    expect(err).toContain("diff --git a/made by agent.txt b/made by agent.txt\nnew file mode 100644\n");
    expect(err).toMatch(/--- \/dev\/null\n\+\+\+ b\/made by agent\.txt\t?\n@@ -0,0 \+1 @@\n\+written by the fake agent\n/);
    expect(err).not.toContain(".od-home");
    expect(readFileSync(join(repo, ".git", "index"))).toEqual(index);
    const status = git("--no-optional-locks", "status", "--porcelain", "-z").split("\0").filter(Boolean);
    expect(status).toContain("?? made by agent.txt"); // untracked still: nothing was added to the user's index
    expect(status.filter((l) => !l.startsWith("?? "))).toEqual([]);
  });
});
