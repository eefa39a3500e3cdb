import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { validateAdapter } from "../../../src/core/agents/adapter.ts";
import { createRegistry } from "../../../src/core/agents/registry.ts";
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
