import { describe, expect, test } from "bun:test";
import { readdirSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { EVENT_TYPES } from "../../src/core/contract/events.ts";
import { alive, FAKE_ACP, installFake, tmpdir } from "../helpers.ts";
import { eventsOf, readFrames, TOKEN, testApp } from "./support.ts";

const answer = [
  { read: "all" },
  { stdout: { t: "session", v: "s-1" } },
  { stdout: { t: "tool", id: "c1", name: "Write" } },
  { stdout: { t: "result", id: "c1" } },
  { stdout: { t: "text", v: "done" } },
];

describe("security", () => {
  test("hostile requests are refused", async () => {
    await using tmp = tmpdir();
    const { request } = testApp(tmp.path, answer);
    const body = { agent: "fake", prompt: "hi", cwd: tmp.path };
    const cases: Array<[string, Response | Promise<Response>, number, string]> = [
      ["no token", request("/api/agents", { headers: { "x-od-token": "" } }), 401, "UNAUTHORIZED"],
      ["wrong token", request("/api/runs", { headers: { "x-od-token": "nope" } }), 401, "UNAUTHORIZED"],
      ["forged Host (DNS rebinding)", request("/api/agents", { headers: { host: "evil.example:7456" } }), 403, "FORBIDDEN"],
      ["forged Host on the UI too", request("/", { headers: { host: "attacker.test" } }), 403, "FORBIDDEN"],
      [
        "foreign Origin",
        request("/api/runs", { method: "POST", json: body, headers: { origin: "http://evil.example" } }),
        403,
        "FORBIDDEN",
      ],
      [
        "text/plain POST (CSRF form)",
        request("/api/runs", { method: "POST", body: JSON.stringify(body), headers: { "content-type": "text/plain" } }),
        400,
        "INVALID_REQUEST",
      ],
      ["relative cwd", request("/api/runs", { method: "POST", json: { ...body, cwd: "../.." } }), 400, "INVALID_REQUEST"],
      [
        "cwd that does not exist",
        request("/api/runs", { method: "POST", json: { ...body, cwd: "/no/such/dir/../x" } }),
        400,
        "INVALID_REQUEST",
      ],
      ["cwd that is a file", request("/api/runs", { method: "POST", json: { ...body, cwd: "/etc/hostname" } }), 400, "INVALID_REQUEST"],
      [
        "oversized body",
        request("/api/runs", { method: "POST", json: { ...body, prompt: "x".repeat(100 * 1024) } }),
        400,
        "INVALID_REQUEST",
      ],
      [
        "bad JSON",
        request("/api/runs", { method: "POST", body: "{", headers: { "content-type": "application/json" } }),
        400,
        "INVALID_REQUEST",
      ],
      ["bad mode", request("/api/runs", { method: "POST", json: { ...body, mode: "root" } }), 400, "INVALID_REQUEST"],
      ["unknown agent", request("/api/runs", { method: "POST", json: { ...body, agent: "nope" } }), 404, "AGENT_UNKNOWN"],
      ["unknown run", request("/api/runs/does-not-exist"), 404, "RUN_NOT_FOUND"],
      ["path tricks in a run id", request("/api/runs/..%2F..%2Fetc/events"), 404, "RUN_NOT_FOUND"],
    ];
    for (const [name, pending, status, code] of cases) {
      const res = await pending;
      expect({ name, status: res.status }).toEqual({ name, status });
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe(code);
    }
  });

  test("health needs no token; the launch URL turns the token into a strict HttpOnly cookie that works", async () => {
    await using tmp = tmpdir();
    const { request } = testApp(tmp.path, answer);
    expect((await request("/api/health", { headers: { "x-od-token": "" } })).status).toBe(200);
    const launch = await request(`/?token=${TOKEN}`, { headers: { "x-od-token": "" } });
    expect(launch.status).toBe(303);
    const cookie = launch.headers.get("set-cookie")!;
    expect(cookie).toContain(`od_token=${TOKEN}`);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Strict");
    const viaCookie = await request("/api/version", { headers: { "x-od-token": "", cookie: cookie.split(";")[0]! } });
    expect(viaCookie.status).toBe(200);
    const page = await request("/", { headers: { "x-od-token": "", cookie: cookie.split(";")[0]! } });
    expect(await page.text()).toContain("<title>od</title>");
    // Without the token the page says how to get a fresh link, instead of an empty form.
    const bare = await request("/", { headers: { "x-od-token": "" } });
    expect(bare.status).toBe(401);
    expect(await bare.text()).toContain("server-token");
    // What agents print is shown as text; the policy makes sure nothing there could run or frame the page.
    for (const path of ["/", "/ui/app.js"]) {
      const res = await request(path, { headers: { "x-od-token": "" } });
      expect(res.headers.get("content-security-policy")).toBe(
        "default-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
      );
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });
});

describe("runs API", () => {
  test("POST /api/runs, then its SSE stream: one frame per event, id = seq, event = type, closing after run.finished", async () => {
    await using tmp = tmpdir();
    const { request, fake } = testApp(tmp.path, answer);
    const created = await request("/api/runs", {
      method: "POST",
      json: { agent: "fake", prompt: "do it", cwd: tmp.path, mode: "read-only" },
    });
    expect(created.status).toBe(201);
    const { runId } = (await created.json()) as { runId: string };
    const res = await request(`/api/runs/${runId}/events`);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const frames = await readFrames(res.body!);
    const events = eventsOf(frames);
    expect(events.map((e) => e.type)).toEqual([
      "run.started",
      "session",
      "tool.call",
      "tool.result",
      "text.delta",
      "run.result",
      "run.finished",
    ]);
    for (const f of frames.filter((x) => x.data)) {
      const e = JSON.parse(f.data!);
      expect(f.id).toBe(String(e.seq));
      expect(f.event).toBe(e.type);
    }
    expect(fake.recorded().argv).toEqual(["--mode", "read-only"]);
    const summary = (await (await request(`/api/runs/${runId}`)).json()) as { status: string; sessionId: string };
    expect(summary).toMatchObject({ status: "succeeded", sessionId: "s-1" });
    const list = (await (await request("/api/runs")).json()) as { runs: Array<{ runId: string }> };
    expect(list.runs.map((r) => r.runId)).toContain(runId);
    // Replay with ?after= skips what the client has.
    const rest = eventsOf(await readFrames((await request(`/api/runs/${runId}/events?after=3`)).body!));
    expect(rest.map((e) => e.seq)).toEqual([4, 5, 6]);
    const fromHeader = eventsOf(
      await readFrames((await request(`/api/runs/${runId}/events`, { headers: { "last-event-id": "4" } })).body!),
    );
    expect(fromHeader.map((e) => e.seq)).toEqual([5, 6]);
  });

  test("POST /api/chat streams the run directly", async () => {
    await using tmp = tmpdir();
    const { request } = testApp(tmp.path, answer);
    const res = await request("/api/chat", { method: "POST", json: { agent: "fake", prompt: "hi", cwd: tmp.path } });
    const events = eventsOf(await readFrames(res.body!));
    expect(events.at(-1)).toMatchObject({ type: "run.finished", status: "succeeded" });
  });

  test("a client that disconnects does not stop the run; cancel does, and the stream says so", async () => {
    await using tmp = tmpdir();
    const { request, fake } = testApp(tmp.path, [{ spawn: ["sleep", "1000"] }, { stdout: { t: "text", v: "working" } }, { hang: true }]);
    const { runId } = (await (
      await request("/api/runs", { method: "POST", json: { agent: "fake", prompt: "hi", cwd: tmp.path } })
    ).json()) as { runId: string };
    // Watch until the agent speaks, then hang up.
    await readFrames((await request(`/api/runs/${runId}/events`)).body!, (f) => f.event === "text.delta");
    expect(((await (await request(`/api/runs/${runId}`)).json()) as { status: string }).status).toBe("running");
    const cancelled = await request(`/api/runs/${runId}/cancel`, { method: "POST", json: {} });
    expect(cancelled.status).toBe(202);
    expect(await cancelled.json()).toEqual({ cancelled: true });
    const events = eventsOf(await readFrames((await request(`/api/runs/${runId}/events`)).body!));
    expect(events.at(-1)).toMatchObject({ type: "run.finished", status: "cancelled" });
    expect(fake.pids().map(alive)).toEqual([false]);
  });

  test("heartbeat comments keep a quiet stream alive", async () => {
    await using tmp = tmpdir();
    const { request } = testApp(tmp.path, [{ stdout: { t: "text", v: "a" } }, { sleep: 150 }, { stdout: { t: "text", v: "b" } }], {
      heartbeatMs: 20,
    });
    const { runId } = (await (
      await request("/api/runs", { method: "POST", json: { agent: "fake", prompt: "hi", cwd: tmp.path } })
    ).json()) as { runId: string };
    const frames = await readFrames((await request(`/api/runs/${runId}/events`)).body!);
    expect(frames.some((f) => f.comment === "hb")).toBe(true);
  });

  test("agents, models and the event schema", async () => {
    await using tmp = tmpdir();
    const { request } = testApp(tmp.path, answer);
    const agents = (await (await request("/api/agents")).json()) as { agents: Array<{ id: string; installed: boolean }> };
    expect(agents.agents.find((a) => a.id === "fake")).toEqual(
      expect.objectContaining({ id: "fake", installed: true, modes: ["read-only", "edit", "full"] }),
    );
    expect(await (await request("/api/agents/fake/models")).json()).toEqual({
      agent: "fake",
      models: ["default"],
      efforts: ["low", "high"],
      source: "none",
    });
    const schema = (await (await request("/api/schema/events")).json()) as { oneOf: unknown[] };
    expect(schema.oneOf.length).toBe(EVENT_TYPES.length);
  });
});

/** A fake ACP agent that asks before writing, then says "after". */
const acpWrite = {
  turn: [
    {
      permission: {
        toolCall: { toolCallId: "tc-1", title: "Run ls", kind: "execute" },
        options: [
          { optionId: "ok", name: "Allow", kind: "allow_once" },
          { optionId: "no", name: "Reject", kind: "reject_once" },
        ],
      },
    },
    { update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "after" } } },
  ],
};

describe("permission relay", () => {
  test("with ask, the browser's answer decides; without a pending question the answer is refused", async () => {
    await using tmp = tmpdir();
    const { request } = testApp(tmp.path, [], {});
    installFake(tmp.path, "fake-acp", acpWrite, FAKE_ACP);
    const { runId } = (await (
      await request("/api/runs", { method: "POST", json: { agent: "fake-acp", prompt: "hi", cwd: tmp.path, mode: "full", ask: true } })
    ).json()) as { runId: string };
    const asked = eventsOf(await readFrames((await request(`/api/runs/${runId}/events`)).body!, (f) => f.event === "permission.request"));
    const ask = asked.at(-1) as { id: string };
    expect((await request(`/api/runs/${runId}/permissions/nope`, { method: "POST", json: { decision: "allow" } })).status).toBe(404);
    expect((await request(`/api/runs/${runId}/permissions/${ask.id}`, { method: "POST", json: { decision: "allow" } })).status).toBe(200);
    const all = eventsOf(await readFrames((await request(`/api/runs/${runId}/events`)).body!));
    expect(all.find((e) => e.type === "permission.decision")).toMatchObject({ decision: "allow", by: "user" });
    expect(all.at(-1)).toMatchObject({ type: "run.finished", status: "succeeded" });
  });

  test("the mode is a ceiling: in read-only the browser is not asked what the policy denies, and cannot allow it", async () => {
    await using tmp = tmpdir();
    const { request } = testApp(tmp.path, []);
    installFake(tmp.path, "fake-acp", acpWrite, FAKE_ACP);
    const { runId } = (await (
      await request("/api/runs", { method: "POST", json: { agent: "fake-acp", prompt: "hi", cwd: tmp.path, mode: "read-only", ask: true } })
    ).json()) as { runId: string };
    const all = eventsOf(await readFrames((await request(`/api/runs/${runId}/events`)).body!));
    expect(all.find((e) => e.type === "permission.decision")).toMatchObject({ decision: "deny", by: "policy" });
    expect(all.at(-1)).toMatchObject({ type: "run.finished" });
  });
});

describe("image uploads", () => {
  test("an image is stored privately and checked; anything else is refused", async () => {
    await using tmp = tmpdir();
    const { request } = testApp(tmp.path, []);
    const png = Buffer.from("89504e470d0a1a0a", "hex").toString("base64");
    const ok = await request("/api/uploads", { method: "POST", json: { name: "shot.png", data: png } });
    expect(ok.status).toBe(201);
    const { path } = (await ok.json()) as { path: string };
    expect(path).toMatch(/uploads\/[\w-]+\.png$/);
    expect((statSync(path).mode & 0o777).toString(8)).toBe("600");
    const bad = await request("/api/uploads", { method: "POST", json: { name: "notes.txt", data: png } });
    expect(bad.status).toBe(400);
    expect(readdirSync(dirname(path))).toHaveLength(1); // the refused file is not kept
  });
});
