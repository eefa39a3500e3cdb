/**
 * No worktree outlives its od: one killed with SIGKILL mid-run leaves its workspaces recorded in
 * OD_HOME/worktrees, and the next `recover` (a compare run's start, `od serve`'s start) removes them;
 * a live od's workspaces are left alone.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createRegistry } from "../../../src/core/agents/registry.ts";
import { parallel } from "../../../src/core/run/parallel.ts";
import { recover } from "../../../src/core/workspace/lease.ts";
import { createWorkspace } from "../../../src/core/workspace/worktree.ts";
import { installFake, ROOT, tmpdir } from "../../helpers.ts";
import { fakeAdapter } from "../../support/fake-adapter.ts";

function userRepo(tmp: string) {
  const repo = join(tmp, "repo");
  mkdirSync(repo);
  const git = (...args: string[]) => Bun.spawnSync(["git", ...args], { cwd: repo }).stdout.toString();
  git("init", "-q");
  git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "init");
  return { repo, worktrees: () => git("worktree", "list", "--porcelain") };
}

/** An od (a bun script) that makes a workspace in `cwd`, says where, and waits; killed with SIGKILL once it has said so. */
async function killedWith(tmp: string, cwd: string, home: string): Promise<string> {
  const script = join(tmp, "holder.ts");
  writeFileSync(
    script,
    `import { writeFileSync } from "node:fs";
import { createWorkspace } from ${JSON.stringify(join(ROOT, "src/core/workspace/worktree.ts"))};
const ws = await createWorkspace(${JSON.stringify(cwd)}, "a", { env: { OD_HOME: ${JSON.stringify(home)} } });
writeFileSync(ws.dir + "/.git", "gitdir: /nowhere\\n"); // what an agent may leave of it
console.log(ws.dir);
setInterval(() => {}, 1 << 30);
`,
  );
  const child = Bun.spawn([process.execPath, script], { stdout: "pipe", stderr: "inherit" });
  const reader = child.stdout.getReader();
  let out = "";
  while (!out.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    out += new TextDecoder().decode(value);
  }
  child.kill("SIGKILL");
  await child.exited;
  return out.trim();
}

describe("workspaces left by a killed od", () => {
  test("a worktree whose od was SIGKILLed is removed by the next recover: git lists only the main tree, the temporary folder is gone", async () => {
    await using tmp = tmpdir();
    const { repo, worktrees } = userRepo(tmp.path);
    const home = join(tmp.path, "home");
    const before = worktrees();
    const dir = await killedWith(tmp.path, repo, home);
    expect(existsSync(dir)).toBe(true);
    expect(worktrees()).toContain(dir);
    expect(await recover({ OD_HOME: home })).toEqual([dir]);
    expect(worktrees()).toBe(before);
    expect(existsSync(dirname(dir))).toBe(false);
    expect(readdirSync(join(home, "worktrees"))).toEqual([]);
  });

  test("a plain copy whose od was SIGKILLed: its temporary folder is removed", async () => {
    await using tmp = tmpdir();
    const plain = join(tmp.path, "plain");
    mkdirSync(plain);
    writeFileSync(join(plain, "a.txt"), "a\n");
    const home = join(tmp.path, "home");
    const dir = await killedWith(tmp.path, plain, home);
    expect(existsSync(dir)).toBe(true);
    expect(await recover({ OD_HOME: home })).toEqual([dir]);
    expect(existsSync(dirname(dir))).toBe(false);
  });

  test("the next compare run removes them before it makes its own", async () => {
    await using tmp = tmpdir();
    const { repo, worktrees } = userRepo(tmp.path);
    const before = worktrees();
    const fake = installFake(tmp.path, "fake-agent", [{ read: "all" }, { stdout: { t: "text", v: "done" } }]);
    const env = { ...fake.env, OD_HOME: join(tmp.path, "home") };
    const dir = await killedWith(tmp.path, repo, env.OD_HOME);
    for await (const _ of parallel([{ agent: "fake", prompt: "go", cwd: repo }], { registry: createRegistry([fakeAdapter]), env }));
    expect(worktrees()).toBe(before);
    expect(existsSync(dir)).toBe(false);
  });

  test("a live od's workspace is left alone, and goes with its dispose", async () => {
    await using tmp = tmpdir();
    const { repo, worktrees } = userRepo(tmp.path);
    const env = { OD_HOME: join(tmp.path, "home") };
    const ws = await createWorkspace(repo, "a", { env });
    expect(await recover(env)).toEqual([]);
    expect(existsSync(ws.dir)).toBe(true);
    await ws.dispose();
    expect(worktrees()).not.toContain(ws.dir);
    expect(readdirSync(join(env.OD_HOME, "worktrees"))).toEqual([]);
  });
});
