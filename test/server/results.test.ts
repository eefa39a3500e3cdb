/** GET /api/runs/:id/diff and POST /api/runs/:id/apply over a compare run kept in a temporary repository. */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { groupOf } from "../../src/core/run/compare-record.ts";
import { type ParallelResult, parallel } from "../../src/core/run/parallel.ts";
import { writeGroup } from "../../src/core/store/groups.ts";
import { runsDirOf } from "../../src/core/workspace/apply.ts";
import { tmpdir } from "../helpers.ts";
import { registry, testApp } from "./support.ts";

/** Two runs of the fake agent, each writing new.txt, kept as branches and recorded as a group. */
async function keptGroup(dir: string, env: Record<string, string>) {
  const repo = join(dir, "repo");
  mkdirSync(repo);
  Bun.spawnSync(["sh", "-c", "git init -q && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m init"], { cwd: repo });
  const groupId = crypto.randomUUID();
  const results: ParallelResult[] = [];
  const runsDir = runsDirOf(env);
  const requests = ["fake", "fake"].map((agent) => ({ agent, prompt: "go", cwd: repo }));
  for await (const item of parallel(requests, { registry, env, keep: { groupId, dir: join(runsDir, groupId) } }))
    if ("result" in item) results.push(item.result);
  writeGroup(runsDir, groupOf(groupId, { cwd: repo, prompt: "go", startedAt: Date.now(), labels: ["fake", "fake#2"] }, results));
  return { repo, groupId };
}

const script = [{ read: "all" }, { touch: "new.txt" }, { stdout: { t: "text", v: "done" } }];

describe("results over HTTP", () => {
  test("diff gives each member's diff; apply applies one, refused without the token or from a foreign Origin", async () => {
    await using tmp = tmpdir();
    const { request, fake } = testApp(tmp.path, script);
    const { repo, groupId } = await keptGroup(tmp.path, fake.env);
    const diff = await request(`/api/runs/${groupId}/diff`);
    expect(diff.status).toBe(200);
    const body = (await diff.json()) as { groupId: string; members: { label: string; diff: string; files: unknown[] }[] };
    expect(body.groupId).toBe(groupId);
    expect(body.members.map((m) => m.label)).toEqual(["fake", "fake#2"]);
    for (const m of body.members) {
      expect(m.diff).toContain("+++ b/new.txt");
      expect(m.files).toEqual([{ path: "new.txt", added: 1, removed: 0 }]);
    }
    const apply = (headers: Record<string, string> = {}) =>
      request(`/api/runs/${groupId}/apply`, { method: "POST", json: { label: "fake#2" }, headers });
    expect((await apply({ "x-od-token": "" })).status).toBe(401);
    expect((await apply({ origin: "http://evil.example" })).status).toBe(403);
    expect(existsSync(join(repo, "new.txt"))).toBe(false); // the refused requests changed nothing
    const ok = await apply();
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ groupId, label: "fake#2", files: [{ path: "new.txt", added: 1, removed: 0 }] });
    expect(readFileSync(join(repo, "new.txt"), "utf8")).toBe("written by the fake agent\n");
    // The other member touches the same file, now there: refused, nothing changed.
    writeFileSync(join(repo, "new.txt"), "mine\n");
    const refused = await request(`/api/runs/${groupId}/apply`, { method: "POST", json: { label: "fake" } });
    expect(refused.status).toBe(400);
    expect(readFileSync(join(repo, "new.txt"), "utf8")).toBe("mine\n");
    expect((await request("/api/runs/no-such-run/diff")).status).toBe(404);
  });

  test("discard removes the kept branches, refused without the token; the diff then shows nothing kept", async () => {
    await using tmp = tmpdir();
    const { request, fake } = testApp(tmp.path, script);
    const { repo, groupId } = await keptGroup(tmp.path, fake.env);
    const branches = () =>
      Bun.spawnSync(["git", "branch", "--list", `od/${groupId}/*`], { cwd: repo })
        .stdout.toString()
        .trim();
    expect(branches().split("\n")).toHaveLength(2);
    const discard = (headers: Record<string, string> = {}) =>
      request(`/api/runs/${groupId}/discard`, { method: "POST", json: {}, headers });
    expect((await discard({ "x-od-token": "" })).status).toBe(401);
    expect(branches().split("\n")).toHaveLength(2);
    const ok = await discard();
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as { groupId: string; branches: string[]; notes: string[] };
    expect(body.groupId).toBe(groupId);
    expect(body.branches.sort()).toEqual([`od/${groupId}/fake`, `od/${groupId}/fake#2`].sort());
    expect(body.notes).toEqual([]);
    expect(branches()).toBe("");
    const diff = (await (await request(`/api/runs/${groupId}/diff`)).json()) as { members: { diff: string | null }[] };
    expect(diff.members.map((m) => m.diff)).toEqual([null, null]);
    // Nothing left: a second discard removes nothing; an unknown id is a 404.
    expect(await (await discard()).json()).toMatchObject({ branches: [], patches: [] });
    expect((await request("/api/runs/no-such-run/discard", { method: "POST", json: {} })).status).toBe(404);
  });

  test("diff of a single run: the files and diff of its run.result", async () => {
    await using tmp = tmpdir();
    const { request } = testApp(tmp.path, script);
    const cwd = join(tmp.path, "work");
    mkdirSync(cwd);
    const { runId } = (await (await request("/api/runs", { method: "POST", json: { agent: "fake", prompt: "go", cwd } })).json()) as {
      runId: string;
    };
    while (((await (await request(`/api/runs/${runId}`)).json()) as { status: string }).status === "running") await Bun.sleep(20);
    const diff = await request(`/api/runs/${runId}/diff`);
    expect(diff.status).toBe(200);
    expect(await diff.json()).toMatchObject({ runId, files: ["new.txt"] });
  });
  test("diff of a compare run whose group.json was tampered with: refused as invalid, git never sees the value", async () => {
    await using tmp = tmpdir();
    const { request, fake } = testApp(tmp.path, script);
    const { groupId } = await keptGroup(tmp.path, fake.env);
    const record = join(runsDirOf(fake.env), groupId, "group.json");
    const victim = join(tmp.path, "victim.txt");
    writeFileSync(victim, "precious\n");
    const group = JSON.parse(readFileSync(record, "utf8"));
    group.members[0].kept.commit = `--output=${victim}`;
    writeFileSync(record, JSON.stringify(group));
    const r = await request(`/api/runs/${groupId}/diff`);
    expect(readFileSync(victim, "utf8")).toBe("precious\n");
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: "INVALID_REQUEST",
      message: expect.stringContaining("is not valid"),
    });
  });
});
