import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRegistry } from "../../../src/core/agents/registry.ts";
import { validateAdapter } from "../../../src/core/contract/adapter.ts";
import { type ParallelItem, type ParallelResult, parallel } from "../../../src/core/run/parallel.ts";
import { installFake, tmpdir } from "../../helpers.ts";
import { fakeAdapter } from "../../support/fake-adapter.ts";

/** Three agents over the same fake: each writes its own file in its own copy. */
const agents = ["alpha", "beta", "gamma"];
const registry = createRegistry(agents.map((id) => validateAdapter({ ...fakeAdapter, id, bin: id })));

async function runAll(cwd: string, env: Record<string, string>) {
  const items: ParallelItem[] = [];
  for await (const item of parallel(
    agents.map((agent) => ({ agent, prompt: "do it", cwd })),
    { registry, env, maxConcurrent: 2 },
  ))
    items.push(item);
  return { items, results: items.flatMap((i) => ("result" in i ? [i.result] : [])) as ParallelResult[] };
}

function install(tmp: string) {
  let env: Record<string, string> = {};
  for (const id of agents)
    env = installFake(tmp, id, [{ read: "all" }, { touch: `${id}.txt` }, { stdout: { t: "text", v: `${id} done` } }]).env;
  return env;
}

describe("parallel runs", () => {
  test("in a git repository: each agent in its own worktree, the user's tree untouched, each agent's own diff", async () => {
    await using tmp = tmpdir();
    const repo = join(tmp.path, "repo");
    const sh = (cmd: string) => Bun.spawnSync(["sh", "-c", cmd], { cwd: repo });
    Bun.spawnSync(["mkdir", repo]);
    sh("git init -q && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m init");
    writeFileSync(join(repo, "work.txt"), "uncommitted user work\n");
    sh("git add work.txt");
    const env = install(tmp.path);
    const status = () => sh("git status --porcelain").stdout.toString();
    const before = status();
    const { items, results } = await runAll(repo, env);
    expect(results.map((r) => r.agent).sort()).toEqual(agents);
    for (const r of results) {
      expect(r).toMatchObject({ status: "succeeded", workspace: "worktree", files: [`${r.agent}.txt`] });
      expect(r.diff).toContain(`+++ b/${r.agent}.txt`);
    }
    expect(status()).toBe(before); // the user's tree is as it was
    expect(readdirSync(repo).sort()).toEqual([".git", "work.txt"]);
    expect(sh("git worktree list").stdout.toString().trim().split("\n")).toHaveLength(1);
    expect(items.filter((i) => "event" in i && i.event.type === "run.finished")).toHaveLength(3);
    // Each result names its run, so a script reading --json can tie the events to the agent.
    for (const r of results)
      expect(
        items.some((i) => "event" in i && i.event.type === "run.started" && i.event.runId === r.runId && i.event.agent === r.agent),
      ).toBe(true);
  });

  test("kept: the same agent twice gets two labels and two branches on one base; the user's branch and index untouched", async () => {
    await using tmp = tmpdir();
    const repo = join(tmp.path, "repo");
    const git = (...args: string[]) => Bun.spawnSync(["git", ...args], { cwd: repo }).stdout.toString();
    Bun.spawnSync(["mkdir", repo]);
    git("init", "-q");
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "init");
    writeFileSync(join(repo, "untracked.txt"), "mine\n");
    const env = install(tmp.path);
    const index = readFileSync(join(repo, ".git", "index"));
    const head = git("symbolic-ref", "HEAD") + git("rev-parse", "HEAD");
    let base: string | undefined;
    const results: ParallelResult[] = [];
    for await (const item of parallel(
      ["alpha", "alpha"].map((agent) => ({ agent, prompt: "do it", cwd: repo })),
      { registry, env, keep: { groupId: "g1", dir: join(tmp.path, "g1") }, onBase: (b) => (base = b) },
    ))
      if ("result" in item) results.push(item.result);
    expect(results.map((r) => r.label).sort()).toEqual(["alpha", "alpha#2"]);
    for (const r of results) {
      expect(r.stats).toEqual([{ path: "alpha.txt", added: 1, removed: 0 }]);
      expect(r.kept).toMatchObject({ kind: "branch", branch: `od/g1/${r.label}` });
      expect(git("rev-parse", `od/g1/${r.label}^`).trim()).toBe(base!); // on top of the one starting commit
      expect(git("show", `${base}:untracked.txt`)).toBe("mine\n"); // which holds the user's untracked work
    }
    expect(git("symbolic-ref", "HEAD") + git("rev-parse", "HEAD")).toBe(head);
    expect(readFileSync(join(repo, ".git", "index"))).toEqual(index);
    expect(git("status", "--porcelain")).toBe("?? untracked.txt\n");
  });

  test("outside a repository: a private copy each, and the files each changed", async () => {
    await using tmp = tmpdir();
    const dir = join(tmp.path, "plain");
    Bun.spawnSync(["mkdir", dir]);
    writeFileSync(join(dir, "keep.txt"), "mine\n");
    const { results } = await runAll(dir, install(tmp.path));
    for (const r of results) expect(r).toMatchObject({ status: "succeeded", workspace: "copy", files: [`${r.agent}.txt`] });
    expect(readdirSync(dir)).toEqual(["keep.txt"]);
    expect(readFileSync(join(dir, "keep.txt"), "utf8")).toBe("mine\n");
  });
});
