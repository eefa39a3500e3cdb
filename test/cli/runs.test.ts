/** `od runs`, compiled: CLI runs are kept in OD_HOME/runs like the server's, listed, replayed, and served by GET /api/runs. */
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { OdEvent } from "../../src/core/contract/events.ts";
import { Slots } from "../../src/core/os/slots.ts";
import { Runs } from "../../src/core/runs/service.ts";
import { writeGroup } from "../../src/core/store/groups.ts";
import { RunLog } from "../../src/core/store/run-log.ts";
import { createApp } from "../../src/server/app.ts";
import { DIST_OD, FIXTURES, installFake, tmpdir } from "../helpers.ts";
import { HOST, registry, TOKEN } from "../server/support.ts";

function od(args: string[], env: Record<string, string>) {
  const p = Bun.spawnSync([DIST_OD, ...args], { env: { NO_COLOR: "1", ...env }, stdin: "ignore" });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

/** A git repository with one commit, and a fake claude that writes a file in it and answers QUICK_CHAT_OK. */
function setup(dir: string) {
  const repo = join(dir, "repo");
  mkdirSync(repo);
  const git = (...args: string[]) => Bun.spawnSync(["git", ...args], { cwd: repo });
  git("init", "-q");
  writeFileSync(join(repo, "README.md"), "hello\n");
  git("add", "README.md");
  git("-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", "commit", "-qm", "init");
  const fake = installFake(dir, "claude", [{ read: "all" }, { touch: "new.txt" }, { replay: join(FIXTURES, "claude/plain.jsonl") }]);
  return { repo, fake, env: fake.env, runs: join(fake.env.OD_HOME!, "runs") };
}

function serverList(runsDir: string, env: Record<string, string>) {
  const runs = new Runs({ registry, log: new RunLog(runsDir), slots: new Slots(1), env });
  const app = createApp({ registry, runs, token: TOKEN, allowedHosts: [HOST], env, maxBodyBytes: 64 * 1024 });
  return app.request("/api/runs", { headers: { host: HOST, "x-od-token": TOKEN } });
}

describe("od runs (compiled)", () => {
  test("a CLI run is kept, listed (text and --json), shown by a prefix of its id, and listed by the server", async () => {
    await using tmp = tmpdir();
    const { repo, env, runs } = setup(tmp.path);
    const run = od(["run", "--agent", "claude", "--result", "--cwd", repo, "write a file"], env);
    expect(run.code).toBe(0);
    const [runId] = readdirSync(runs);
    expect(runId).toMatch(/^[\w-]{36}$/);
    const request = JSON.parse(readFileSync(join(runs, runId!, "request.json"), "utf8"));
    expect(request).toMatchObject({ agent: "claude", prompt: "write a file", cwd: repo, mode: "edit", origin: "cli" });
    expect(JSON.stringify(request)).not.toContain("PATH");

    const list = od(["runs"], env);
    expect(list.code).toBe(0);
    const row = list.out.split("\n").find((l) => l.startsWith(runId!.slice(0, 8)))!;
    expect(row).toMatch(/claude\s+just now\s+\S+\s+succeeded\s+\d+\.\ds\s+12\/3\s+write a file$/);
    for (const line of list.out.split("\n")) expect(line.length).toBeLessThanOrEqual(100);
    const json = JSON.parse(od(["runs", "--json"], env).out);
    expect(json).toEqual({
      runs: [
        expect.objectContaining({
          kind: "run",
          runId,
          agent: "claude",
          cwd: repo,
          status: "succeeded",
          usage: { inputTokens: 12, outputTokens: 3, costUsd: 0.000108 },
        }),
      ],
      total: 1,
      agents: ["claude"],
    });
    // Filters as the server's: another agent's runs, none; a bad status, a usage error.
    expect(JSON.parse(od(["runs", "--json", "--agent", "pi"], env).out)).toEqual({ runs: [], total: 0, agents: ["claude"] });
    expect(od(["runs", "--status", "nope"], env).code).toBe(2);

    const show = od(["runs", "show", runId!.slice(0, 6)], env);
    expect(show.code).toBe(0);
    expect(show.out).toContain(`run      ${runId}`);
    expect(show.out).toMatch(/agent\s+claude.*mode edit/);
    expect(show.out).toContain("prompt   write a file");
    expect(show.out).toContain("resume   od run --agent claude --resume a8502b9f-1c7c-4b65-8114-46286ff56fff");
    expect(show.out).toContain("QUICK_CHAT_OK"); // the replayed text, through od run's renderer
    expect(show.out).toContain("od: succeeded in");
    expect(show.out).toContain("diff --git a/new.txt b/new.txt");
    const events = od(["runs", "show", runId!, "--json"], env).out.trim().split("\n");
    expect(events.map((l) => OdEvent.parse(JSON.parse(l)).type).at(-1)).toBe("run.finished");

    const res = await serverList(runs, env);
    expect(res.status).toBe(200);
    // The server gives the very page `od runs --json` prints: the same records, the same fields.
    expect(await res.json()).toEqual(json);
  });

  test("unknown and ambiguous ids are usage errors with a hint; a compare run's folder is one entry, not a broken run", async () => {
    await using tmp = tmpdir();
    const { env, runs } = setup(tmp.path);
    const log = new RunLog(runs);
    for (const id of ["abc111", "abc222"]) log.create(id, { agent: "pi", prompt: "p", cwd: tmp.path });
    const none = od(["runs", "show", "zzz"], env);
    expect([none.code, none.out]).toEqual([2, ""]);
    expect(none.err).toMatch(/No run with an id starting zzz.*\nhint: `od runs` lists/);
    const both = od(["runs", "show", "abc"], env);
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/ambiguous.*abc111.*abc222|ambiguous.*abc222.*abc111/);
    expect(both.err).toContain("hint: Give more of the id");

    writeGroup(runs, {
      id: "g1",
      cwd: tmp.path,
      prompt: "compare",
      startedAt: Date.now(),
      members: [
        {
          label: "pi",
          agent: "pi",
          runId: "abc111",
          status: "succeeded",
          durationMs: 1000,
          files: [],
          kept: { kind: "branch", branch: "od/g1/pi", commit: "c".repeat(40) },
        },
        { label: "pi#2", agent: "pi", runId: "abc222", status: "failed", durationMs: 2000, files: [] },
      ],
    });
    const list = od(["runs"], env);
    expect(list.code).toBe(0);
    expect(list.out).toContain("compare: pi, pi#2");
    expect(list.out).not.toContain("abc111"); // members are inside the group's entry
    const json = JSON.parse(od(["runs", "--json"], env).out) as { runs: Array<{ kind: string; groupId?: string; members?: unknown[] }> };
    expect(json.runs.map((e) => [e.kind, e.groupId])).toEqual([["compare", "g1"]]);
    expect(json.runs[0]!.members).toHaveLength(2);
    const show = od(["runs", "show", "g1"], env);
    expect(show.code).toBe(0);
    expect(show.out).toContain("od apply g1 <label>");
    expect(await (await serverList(runs, env)).json()).toEqual(json);
  });

  test("a compare run's members are kept in the run log, tied to the group, and listed as one entry", async () => {
    await using tmp = tmpdir();
    const { repo, env, runs } = setup(tmp.path);
    const run = od(["run", "--agent", "claude", "--repeat", "2", "--json", "--cwd", repo, "write a file"], env);
    expect(run.code).toBe(0);
    const compare = JSON.parse(run.out.trim().split("\n").at(-1)!) as { groupId: string; members: Array<{ runId: string }> };
    const members = compare.members.map((m) => m.runId).sort();
    for (const id of members) {
      const request = JSON.parse(readFileSync(join(runs, id, "request.json"), "utf8"));
      expect(request).toMatchObject({ agent: "claude", cwd: repo, origin: "cli", groupId: compare.groupId });
    }
    const json = JSON.parse(od(["runs", "--json"], env).out) as {
      runs: Array<{ kind: string; groupId?: string; status?: string; members: Array<{ runId: string }> }>;
    };
    expect(json.runs.map((e) => [e.kind, e.groupId, e.status])).toEqual([["compare", compare.groupId, "succeeded"]]);
    expect(json.runs[0]!.members.map((m) => m.runId).sort()).toEqual(members);
    // One compare run, one record, in the API as in the CLI.
    expect(await (await serverList(runs, env)).json()).toEqual(json);
  });

  test("a run log that cannot be written warns once and the run goes on", async () => {
    await using tmp = tmpdir();
    const { repo, env } = setup(tmp.path);
    writeFileSync(join(tmp.path, "home-file"), "not a directory");
    chmodSync(join(tmp.path, "home-file"), 0o444);
    const run = od(["run", "--agent", "claude", "--cwd", repo, "hi"], { ...env, OD_HOME: join(tmp.path, "home-file") });
    expect(run.code).toBe(0);
    expect(run.out).toBe("QUICK_CHAT_OK\n");
    expect(run.err.match(/not kept in od's history/g)).toHaveLength(1);
  });
});
