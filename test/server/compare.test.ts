/** POST /api/compare: a compare run over HTTP, each member a run like any other, kept and applied as `od run --agent a,b` does. */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readGroup } from "../../src/core/store/groups.ts";
import { runsDirOf } from "../../src/core/workspace/apply.ts";
import { FAKE_ACP, installFake, tmpdir } from "../helpers.ts";
import { eventsOf, readFrames, testApp } from "./support.ts";

type Started = { groupId: string; members: { label: string; agent: string; runId: string }[] };

const script = [
  { read: "all" },
  {
    ifStdin: "hang",
    then: [{ stdout: { t: "text", v: "still working" } }, { hang: true }],
    else: [{ touch: "new.txt" }, { stdout: { t: "text", v: "wrote new.txt" } }],
  },
];
const acpScript = { turn: [{ update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "nothing to change" } } }] };

function repo(dir: string) {
  const path = join(dir, "repo");
  mkdirSync(path);
  Bun.spawnSync(["sh", "-c", "git init -q && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m init"], { cwd: path });
  return path;
}

/** Polls GET /api/compare/:groupId until the group is recorded. */
async function finished(request: ReturnType<typeof testApp>["request"], groupId: string) {
  for (;;) {
    const body = (await (await request(`/api/compare/${groupId}`)).json()) as { done: boolean; group?: { members: unknown[] } };
    if (body.done) return body;
    await Bun.sleep(20);
  }
}

describe("compare runs over HTTP", () => {
  test("two agents stream as runs of their own, are kept as branches and recorded; one is applied", async () => {
    await using tmp = tmpdir();
    const { request, fake } = testApp(tmp.path, script);
    installFake(tmp.path, "fake-acp", acpScript, FAKE_ACP);
    const cwd = repo(tmp.path);
    const res = await request("/api/compare", { method: "POST", json: { agents: ["fake", "fake-acp"], prompt: "go", cwd } });
    expect(res.status).toBe(201);
    const { groupId, members } = (await res.json()) as Started;
    expect(members.map((m) => [m.label, m.agent])).toEqual([
      ["fake", "fake"],
      ["fake-acp", "fake-acp"],
    ]);
    // Each member is watched like a single run, from its first event, and resumed after any of them.
    const streams = await Promise.all(
      members.map(async (m) => eventsOf(await readFrames((await request(`/api/runs/${m.runId}/events`)).body!))),
    );
    expect(streams[0]!.find((e) => e.type === "text.delta")).toMatchObject({ text: "wrote new.txt" });
    expect(streams[1]!.find((e) => e.type === "text.delta")).toMatchObject({ text: "nothing to change" });
    for (const [i, events] of streams.entries()) {
      expect(events.every((e) => e.runId === members[i]!.runId)).toBe(true);
      expect(events.at(-1)).toMatchObject({ type: "run.finished", status: "succeeded" });
    }
    const resumed = await request(`/api/runs/${members[0]!.runId}/events`, { headers: { "last-event-id": "1" } });
    expect(eventsOf(await readFrames(resumed.body!))[0]!.seq).toBe(2);
    const summary = (await (await request(`/api/runs/${members[0]!.runId}`)).json()) as { groupId?: string; cwd?: string };
    expect(summary).toMatchObject({ groupId, cwd });

    const status = await finished(request, groupId);
    const group = readGroup(runsDirOf(fake.env), groupId)!;
    expect(status.group).toEqual(JSON.parse(JSON.stringify(group)));
    expect(group.members.map((m) => [m.label, m.runId, m.status])).toEqual(members.map((m) => [m.label, m.runId, "succeeded"]));
    expect(group.members[0]!.kept).toMatchObject({ kind: "branch", branch: `od/${groupId}/fake` });
    expect(group.members[1]!.kept).toBeUndefined();
    expect(existsSync(join(cwd, "new.txt"))).toBe(false); // the user's tree is untouched until apply

    const diff = (await (await request(`/api/runs/${groupId}/diff`)).json()) as { members: { label: string; diff: string | null }[] };
    expect(diff.members.map((m) => m.label)).toEqual(["fake", "fake-acp"]);
    expect(diff.members[0]!.diff).toContain("+++ b/new.txt");
    expect(diff.members[1]!.diff).toBeNull();
    const applied = await request(`/api/runs/${groupId}/apply`, { method: "POST", json: { label: "fake" } });
    expect(applied.status).toBe(200);
    expect(readFileSync(join(cwd, "new.txt"), "utf8")).toBe("written by the fake agent\n");
  });

  test("one agent repeated; cancelling the group cancels every member, and the group is still recorded", async () => {
    await using tmp = tmpdir();
    const { request, runs } = testApp(tmp.path, script);
    const cwd = repo(tmp.path);
    const res = await request("/api/compare", { method: "POST", json: { agent: "fake", repeat: 2, prompt: "hang", cwd } });
    const { groupId, members } = (await res.json()) as Started;
    expect(members.map((m) => m.label)).toEqual(["fake", "fake#2"]);
    await Promise.all(
      members.map(async (m) => readFrames((await request(`/api/runs/${m.runId}/events`)).body!, (f) => f.event === "text.delta")),
    );
    expect(((await (await request(`/api/compare/${groupId}`)).json()) as { done: boolean }).done).toBe(false);
    const cancel = await request(`/api/compare/${groupId}/cancel`, { method: "POST", json: {} });
    expect(cancel.status).toBe(202);
    expect(await cancel.json()).toEqual({ cancelled: 2 });
    const status = (await finished(request, groupId)) as { group: { members: { status: string }[] } };
    expect(status.group.members.map((m) => m.status)).toEqual(["cancelled", "cancelled"]);
    for (const m of members) await runs.waitFor(m.runId);
  });

  test("a member can be cancelled alone, through the run's own route", async () => {
    await using tmp = tmpdir();
    const { request } = testApp(tmp.path, script);
    const cwd = repo(tmp.path);
    const { groupId, members } = (await (
      await request("/api/compare", { method: "POST", json: { agents: ["fake", "fake"], prompt: "hang", cwd } })
    ).json()) as Started;
    await readFrames((await request(`/api/runs/${members[1]!.runId}/events`)).body!, (f) => f.event === "text.delta");
    expect((await request(`/api/runs/${members[1]!.runId}/cancel`, { method: "POST", json: {} })).status).toBe(202);
    const events = eventsOf(await readFrames((await request(`/api/runs/${members[1]!.runId}/events`)).body!));
    expect(events.at(-1)).toMatchObject({ type: "run.finished", status: "cancelled" });
    expect(((await (await request(`/api/runs/${members[0]!.runId}`)).json()) as { status: string }).status).toBe("running");
    await request(`/api/compare/${groupId}/cancel`, { method: "POST", json: {} });
    await finished(request, groupId);
  });

  test("bad requests are refused before anything starts; so are requests without the token or from a foreign origin", async () => {
    await using tmp = tmpdir();
    const { request } = testApp(tmp.path, script);
    const post = (json: unknown, headers: Record<string, string> = {}) => request("/api/compare", { method: "POST", json, headers });
    const base = { prompt: "go", cwd: tmp.path };
    const refused = async (json: unknown, status: number, code: string) => {
      const res = await post(json);
      expect(res.status).toBe(status);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe(code);
    };
    await refused({ ...base, agents: ["fake", "nope"] }, 404, "AGENT_UNKNOWN");
    await refused({ ...base, agents: ["fake"] }, 400, "INVALID_REQUEST");
    await refused({ ...base, agents: Array(9).fill("fake") }, 400, "INVALID_REQUEST");
    await refused({ ...base, agent: "fake" }, 400, "INVALID_REQUEST");
    await refused({ ...base, agent: "fake", repeat: 1 }, 400, "INVALID_REQUEST");
    await refused({ ...base, agents: ["fake", "fake"], repeat: 2 }, 400, "INVALID_REQUEST");
    await refused({ ...base, agents: ["fake", "fake"], cwd: "relative" }, 400, "INVALID_REQUEST");
    await refused({ ...base, agents: ["fake", "fake"], cwd: join(tmp.path, "missing") }, 400, "INVALID_REQUEST");
    await refused({ agents: ["fake", "fake"], prompt: " ", cwd: tmp.path }, 400, "INVALID_REQUEST");
    await refused({ ...base, agents: ["fake", "fake"], cwd: "/etc/hostname" }, 400, "INVALID_REQUEST");
    // The checks POST /runs makes too (routes/body.ts): a body that is JSON, and what it says of each.
    const notJson = await request("/api/compare", { method: "POST", body: "{", headers: { "content-type": "application/json" } });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { error: { message: string } }).error.message).toBe("The body is not valid JSON");
    expect((await post({ ...base, agents: ["fake", "fake"] }, { "x-od-token": "" })).status).toBe(401);
    expect((await post({ ...base, agents: ["fake", "fake"] }, { origin: "http://evil.example" })).status).toBe(403);
    expect((await request("/api/compare/no-such-group")).status).toBe(404);
    expect(((await (await request("/api/runs")).json()) as { runs: unknown[] }).runs).toEqual([]); // nothing started
  });
});
