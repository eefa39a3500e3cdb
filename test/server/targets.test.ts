/**
 * `od serve`'s named targets: targets.json read and checked, `GET /api/targets`, a run on a target
 * by name going through the engine (a recording `ssh` on PATH), each target's own run slots, and a
 * raw `on` URL refused from any client.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { OdEvent } from "../../src/core/contract/events.ts";
import { Slots } from "../../src/core/os/slots.ts";
import { Runs } from "../../src/core/runs/service.ts";
import { RunLog } from "../../src/core/store/run-log.ts";
import { createApp } from "../../src/server/app.ts";
import { startServer } from "../../src/server/serve.ts";
import { loadTargets, parseTargets } from "../../src/server/targets.ts";
import { installFake, tmpdir } from "../helpers.ts";
import { fakeSsh } from "./fake-ssh.ts";
import { HOST, registry, TOKEN } from "./support.ts";

const FILE = { targets: { "build-box": { on: "ssh://me@build-1:2222", maxRuns: 1 }, dev: { on: "docker://dev" } } };
/** The fake agent: "hang" hangs, anything else answers at once. */
const SCRIPT = [
  { read: "all" },
  { ifStdin: "hang", then: [{ stdout: { t: "text", v: "working" } }, { hang: true }], else: [{ stdout: { t: "text", v: "REMOTE_OK" } }] },
];

function targetApp(dir: string, maxRuns = 8) {
  const fake = installFake(dir, "fake-agent", SCRIPT);
  const ssh = fakeSsh(join(dir, "bin"));
  const runs = new Runs({ registry, log: new RunLog(join(dir, "runs")), slots: new Slots(maxRuns), env: fake.env });
  const app = createApp({ registry, runs, targets: parseTargets(FILE), token: TOKEN, allowedHosts: [HOST], env: fake.env });
  const post = (path: string, json: unknown) =>
    app.request(path, {
      method: "POST",
      headers: { host: HOST, "x-od-token": TOKEN, "content-type": "application/json" },
      body: JSON.stringify(json),
    });
  const get = (path: string) => app.request(path, { headers: { host: HOST, "x-od-token": TOKEN } });
  return { runs, ssh, post, get };
}

const eventsOf = (runs: Runs, runId: string) => runs.read(runId, { seq: -1 }, 1 << 20).events.map((e) => JSON.parse(e.json) as OdEvent);

async function until(ok: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error("timed out");
    await Bun.sleep(10);
  }
}

describe("targets.json", () => {
  test("read from OD_HOME; none without the file; a bad one names the file and the field", async () => {
    await using tmp = tmpdir();
    expect(loadTargets(tmp.path).list()).toEqual([]);
    const file = join(tmp.path, "targets.json");
    writeFileSync(file, JSON.stringify(FILE));
    expect(loadTargets(tmp.path).list()).toEqual([
      { name: "build-box", on: "ssh://me@build-1:2222", maxRuns: 1, running: 0, queued: 0 },
      { name: "dev", on: "docker://dev", maxRuns: 2, running: 0, queued: 0 },
    ]);
    for (const [content, message] of [
      ["{ nope", /targets\.json: is not valid JSON/],
      [{ targets: { a: { on: "docker://x", maxRuns: 0 } } }, /targets\.json: targets\.a\.maxRuns: /],
      [{ targets: { a: { on: "ftp://x" } } }, /targets\.json: targets\.a\.on: Unknown target kind "ftp"/],
      [{ targets: { a: { on: "ssh://-oProxyCommand=x" } } }, /targets\.a\.on: Not a valid host/],
      [{ targets: { a: { on: "docker://x", extra: 1 } } }, /targets\.json: targets\.a: /],
      [{ target: {} }, /targets\.json: /],
    ] as const) {
      writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
      expect(() => loadTargets(tmp.path)).toThrow(message);
      expect(() => loadTargets(tmp.path)).toThrow(file);
    }
  });

  test("od serve with a bad targets.json stops before it listens", async () => {
    await using tmp = tmpdir();
    const home = join(tmp.path, "home");
    mkdirSync(home);
    writeFileSync(join(home, "targets.json"), JSON.stringify({ targets: { a: { on: "ssh://" } } }));
    expect(() => startServer({ host: "127.0.0.1", port: 0, maxRuns: 2, registry, env: { OD_HOME: home } })).toThrow(/targets\.a\.on/);
  });
});

describe("named targets in the API", () => {
  test("GET /api/targets lists them; a run names one and goes through its engine, and says where it ran", async () => {
    await using tmp = tmpdir();
    const { runs, ssh, post, get } = targetApp(tmp.path);
    expect(await (await get("/api/targets")).json()).toEqual({ targets: parseTargets(FILE).list() });
    // The directory is the target's (here the "target" is this machine): not checked here, and optional (its login directory).
    const res = await post("/api/runs", { agent: "fake", prompt: "hi there", cwd: tmp.path, target: "build-box" });
    expect(res.status).toBe(201);
    const { runId } = (await res.json()) as { runId: string };
    await runs.waitFor(runId);
    const events = eventsOf(runs, runId);
    expect(events.find((e) => e.type === "run.started")).toMatchObject({ on: "ssh://me@build-1:2222", cwd: tmp.path });
    expect(events.filter((e) => e.type === "text.delta").map((e) => e.text)).toEqual(["REMOTE_OK"]);
    const argv = ssh.calls().find((a) => a.at(-1)!.includes(runId));
    expect(argv).toContain("me@build-1");
    expect(argv!.slice(argv!.indexOf("-p"), argv!.indexOf("-p") + 2)).toEqual(["-p", "2222"]);
    expect(argv!.at(-1)).toStartWith("sh -c ");
    expect(argv!.at(-1)).toContain(tmp.path);
    expect(runs.summary(runId)).toMatchObject({ on: "ssh://me@build-1:2222", status: "succeeded" });
    const login = await post("/api/runs", { agent: "fake", prompt: "hi", target: "build-box" });
    expect(login.status).toBe(201);
    const loginRun = ((await login.json()) as { runId: string }).runId;
    await runs.waitFor(loginRun);
    expect(runs.summary(loginRun)).toMatchObject({ on: "ssh://me@build-1:2222", status: "succeeded" });
    const loginCall = ssh.calls().find((argv) => argv.at(-1)!.includes(loginRun));
    expect(loginCall!.at(-1)).not.toContain("cd ");
    expect((await post("/api/runs", { agent: "fake", prompt: "hi" })).status).toBe(400); // here, a cwd is needed
  });

  test("a raw on URL is refused from any client, an unknown name says which exist, and compare stays on this machine", async () => {
    await using tmp = tmpdir();
    const { ssh, post } = targetApp(tmp.path);
    const body = { agent: "fake", prompt: "hi", cwd: tmp.path };
    for (const [path, json, message] of [
      ["/api/runs", { ...body, on: "ssh://attacker@evil" }, /no target URL/],
      ["/api/chat", { ...body, on: "docker://x" }, /no target URL/],
      ["/api/compare", { ...body, agent: "fake", repeat: 2, on: "ssh://evil" }, /no target URL/],
      ["/api/runs", { ...body, target: "nope" }, /No target named "nope"/],
      ["/api/runs", { ...body, target: 7 }, /must be the name of a configured target/],
      ["/api/compare", { ...body, agent: "fake", repeat: 2, target: "dev" }, /compare run cannot run on a target/],
    ] as const) {
      const res = await post(path, json);
      expect(res.status).toBe(400);
      const { error } = (await res.json()) as { error: { message: string; hint: string } };
      expect(error.message).toMatch(message);
      expect(error.hint).toBeTruthy();
    }
    expect(ssh.calls()).toEqual([]);
  });

  test("each target has its own limit: a second run on a full target waits, while runs elsewhere do not", async () => {
    await using tmp = tmpdir();
    const { runs, post, get } = targetApp(tmp.path);
    const start = async (json: object) =>
      ((await (await post("/api/runs", { agent: "fake", prompt: "hang", cwd: tmp.path, ...json })).json()) as { runId: string }).runId;
    const first = await start({ target: "build-box" });
    await until(() => eventsOf(runs, first).some((e) => e.type === "text.delta"));
    const second = await start({ target: "build-box" });
    const local = await start({});
    await until(() => eventsOf(runs, local).some((e) => e.type === "text.delta"));
    await until(() => eventsOf(runs, second).some((e) => e.type === "status"));
    expect(eventsOf(runs, second).find((e) => e.type === "status")).toMatchObject({
      label: "queued",
      detail: expect.stringContaining("1 of 1"),
    });
    expect(eventsOf(runs, local).some((e) => e.type === "status" && e.label === "queued")).toBe(false);
    const listed = (await (await get("/api/targets")).json()) as { targets: Array<{ name: string; running: number; queued: number }> };
    expect(listed.targets.find((t) => t.name === "build-box")).toMatchObject({ running: 1, queued: 1 });
    runs.cancel(first);
    await until(() => eventsOf(runs, second).some((e) => e.type === "text.delta"));
    await runs.shutdown();
    const after = (await (await get("/api/targets")).json()) as { targets: Array<{ running: number; queued: number }> };
    expect(after.targets.map((t) => [t.running, t.queued])).toEqual([
      [0, 0],
      [0, 0],
    ]);
  });
});
