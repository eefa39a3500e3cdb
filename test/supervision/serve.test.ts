/** `od serve` (compiled) killed with live runs, then started again on the same OD_HOME: no agent survives it. */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES, tmpdir } from "../helpers.ts";
import { fakeFor, gone, killAll, processesWith, sentinelOf, startServe, until } from "./support.ts";

/** Each test takes 1-3 s; the bound only keeps a regression from hanging the suite. */
setDefaultTimeout(9000);

const RUNS = 4;

/** A server with RUNS live runs, each agent with a child in its group and one that left it (setsid). */
async function serveWithLiveRuns(dir: string) {
  const fake = fakeFor(dir, "claude", [
    { read: "all" },
    { spawn: ["sleep", "1000"] },
    { setsid: ["sleep", "1000"], hold: "both" },
    { replay: join(FIXTURES, "claude/plain.jsonl") },
    { hang: true },
  ]);
  const server = await startServe(fake.odEnv);
  for (let i = 0; i < RUNS; i++) {
    const res = await server.api("/runs", { method: "POST", body: JSON.stringify({ agent: "claude", prompt: `run ${i}`, cwd: dir }) });
    expect(res.status).toBe(201);
  }
  expect(
    await until(
      () => processesWith(fake.marker).length,
      (n) => n >= RUNS * 3,
      5000,
    ),
  ).toBe(RUNS * 3);
  return { fake, server };
}

async function statuses(api: Awaited<ReturnType<typeof startServe>>["api"]) {
  const { runs } = (await (await api("/runs")).json()) as { runs: Array<{ status: string }> };
  return runs.map((r) => r.status);
}

describe.skipIf(process.platform !== "linux")("od serve, killed and started again", () => {
  test("kill -9 with live runs, then a restart: every agent is gone (setsid children too), the runs are failed", async () => {
    await using tmp = tmpdir();
    const { fake, server } = await serveWithLiveRuns(tmp.path);
    let again: Awaited<ReturnType<typeof startServe>> | undefined;
    try {
      server.p.kill("SIGKILL");
      await server.p.exited;
      again = await startServe(fake.odEnv);
      expect(await gone(() => processesWith(fake.marker), 5000)).toEqual([]);
      expect(await statuses(again.api)).toEqual(Array(RUNS).fill("failed"));
    } finally {
      again?.p.kill("SIGKILL");
      server.p.kill("SIGKILL");
      killAll(processesWith(fake.marker));
    }
  });

  test("with its sentinel killed too, the restart's recovery ends the survivors before it marks the runs failed", async () => {
    await using tmp = tmpdir();
    const { fake, server } = await serveWithLiveRuns(tmp.path);
    let again: Awaited<ReturnType<typeof startServe>> | undefined;
    try {
      const sentinel = sentinelOf(server.p.pid);
      expect(sentinel).toBeNumber();
      process.kill(sentinel!, "SIGKILL");
      server.p.kill("SIGKILL");
      await server.p.exited;
      expect(processesWith(fake.marker)).toHaveLength(RUNS * 3); // nothing else ended them
      again = await startServe(fake.odEnv);
      // Recovery is done before the server prints its URL.
      expect(await gone(() => processesWith(fake.marker), 1000)).toEqual([]);
      expect(await statuses(again.api)).toEqual(Array(RUNS).fill("failed"));
    } finally {
      again?.p.kill("SIGKILL");
      server.p.kill("SIGKILL");
      killAll(processesWith(fake.marker));
    }
  });

  test("kill -9 during a compare run, then a restart: no worktree of the group is left, and the group is recorded interrupted, once", async () => {
    await using tmp = tmpdir();
    const repo = join(tmp.path, "repo");
    mkdirSync(repo);
    const git = (...args: string[]) => Bun.spawnSync(["git", ...args], { cwd: repo }).stdout.toString();
    git("init", "-q");
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "init");
    const fake = fakeFor(tmp.path, "claude", [{ read: "all" }, { touch: "work.txt" }, { hang: true }]);
    const server = await startServe(fake.odEnv);
    let again: Awaited<ReturnType<typeof startServe>> | undefined;
    try {
      const res = await server.api("/compare", {
        method: "POST",
        body: JSON.stringify({ agent: "claude", repeat: 2, prompt: "go", cwd: repo }),
      });
      expect(res.status).toBe(201);
      const { groupId } = (await res.json()) as { groupId: string };
      const worktrees = () => git("worktree", "list", "--porcelain").match(/^worktree /gm)?.length ?? 0;
      expect(await until(worktrees, (n) => n === 3, 5000)).toBe(3); // both members at work in their worktrees
      server.p.kill("SIGKILL");
      await server.p.exited;
      const restarted = Date.now();
      again = await startServe(fake.odEnv);
      expect(await until(worktrees, (n) => n === 1, 10_000)).toBe(1);
      expect(git("worktree", "list", "--porcelain")).not.toContain("prunable");
      const { runs } = (await (await again.api("/runs")).json()) as {
        runs: Array<{ kind: string; groupId?: string; status: string; members?: Array<{ status: string }> }>;
      };
      expect(runs.filter((r) => r.kind === "compare")).toEqual([
        expect.objectContaining({ groupId, status: "interrupted", members: [expect.anything(), expect.anything()] }),
      ]);
      expect(Date.now() - restarted).toBeLessThan(10_000);
      expect(await gone(() => processesWith(fake.marker), 3000)).toEqual([]);
    } finally {
      again?.p.kill("SIGKILL");
      server.p.kill("SIGKILL");
      killAll(processesWith(fake.marker));
    }
  }, 30_000);

  for (const [signal, code] of [
    ["SIGHUP", 129],
    ["SIGTERM", 143],
  ] as const)
    test(`${signal} stops it like Ctrl-C: runs cancelled, no agent left, exit ${code}`, async () => {
      await using tmp = tmpdir();
      const { fake, server } = await serveWithLiveRuns(tmp.path);
      try {
        server.p.kill(signal);
        expect(await Promise.race([server.p.exited, Bun.sleep(8000).then(() => "still running")])).toBe(code);
        expect(await gone(() => processesWith(fake.marker))).toEqual([]);
        expect(await gone(() => processesWith(fake.home))).toEqual([]);
      } finally {
        server.p.kill("SIGKILL");
        killAll(processesWith(fake.marker));
      }
    });
});
