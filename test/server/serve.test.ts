/** A real server on a random loopback port: reconnects, restarts, shutdown, fan-out, the run queue. */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { OdEvent } from "../../src/core/contract/events.ts";
import { startServer } from "../../src/server/serve.ts";
import { alive, type FakeStep, installFake, tmpdir } from "../helpers.ts";
import { eventsOf, readFrames, registry } from "./support.ts";

function serve(dir: string, script: FakeStep[], maxRuns = 8) {
  const fake = installFake(dir, "fake-agent", script);
  const server = startServer({ host: "127.0.0.1", port: 0, maxRuns, registry, env: fake.env });
  const headers = { "x-od-token": server.token, "content-type": "application/json" };
  const api = (path: string, init: RequestInit = {}) =>
    fetch(new URL(`api${path}`, server.url), { ...init, headers: { ...headers, ...(init.headers as object) } });
  const startRun = async (prompt = "hi") =>
    (
      (await (await api("/runs", { method: "POST", body: JSON.stringify({ agent: "fake", prompt, cwd: dir }) })).json()) as {
        runId: string;
      }
    ).runId;
  const events = async (runId: string, headers: Record<string, string> = {}, until?: (e: OdEvent) => boolean) =>
    eventsOf(
      await readFrames(
        (await api(`/runs/${runId}/events`, { headers })).body!,
        until && ((f) => (f.data ? until(JSON.parse(f.data)) : false)),
      ),
    );
  return { server, fake, api, startRun, events };
}

const texts = (n: number, delay = 0): FakeStep[] =>
  Array.from({ length: n }, (_, i) => [{ stdout: { t: "text", v: `${i} ` } }, ...(delay ? [{ sleep: delay }] : [])]).flat();

describe("od serve", () => {
  test("a client reconnecting with Last-Event-ID gets exactly what it missed, then the live rest", async () => {
    await using tmp = tmpdir();
    const { server, startRun, events } = serve(tmp.path, texts(20, 10));
    try {
      const runId = await startRun();
      const first = await events(runId, {}, (e) => e.seq === 5);
      const rest = await events(runId, { "last-event-id": String(first.at(-1)!.seq) });
      const seqs = [...first, ...rest].map((e) => e.seq);
      expect(seqs).toEqual(seqs.map((_, i) => i));
      expect(rest.at(-1)).toMatchObject({ type: "run.finished", status: "succeeded" });
    } finally {
      await server.stop();
    }
  });

  test("after a restart the whole run replays from its log, and a run the dead server left live is failed with a reason", async () => {
    await using tmp = tmpdir();
    const a = serve(tmp.path, texts(3));
    const runId = await a.startRun();
    const live = await a.events(runId);
    await a.server.stop();
    // A run whose server died mid-way: a log with no run.finished.
    const orphan = "orphan-run";
    mkdirSync(join(tmp.path, ".od/runs", orphan), { recursive: true });
    writeFileSync(
      join(tmp.path, ".od/runs", orphan, "events.jsonl"),
      `${JSON.stringify({ type: "session", runId: orphan, seq: 0, ts: 1, sessionId: "s-9" })}\n{"torn`,
    );
    const b = serve(tmp.path, texts(3));
    try {
      expect(b.server.recovered.runs).toEqual([orphan]);
      expect(await b.events(runId)).toEqual(live);
      const recovered = await b.events(orphan);
      expect(recovered.map((e) => e.type)).toEqual(["session", "error", "run.finished"]);
      expect(recovered[1]).toMatchObject({ message: expect.stringContaining("stopped while it was live") });
      expect(recovered[2]).toMatchObject({ status: "failed", sessionId: "s-9" });
      expect(((await (await b.api(`/runs/${orphan}`)).json()) as { status: string }).status).toBe("failed");
    } finally {
      await b.server.stop();
    }
  });

  test("shutdown cancels every run and leaves no child behind", async () => {
    await using tmp = tmpdir();
    const { server, fake, startRun, events } = serve(tmp.path, [
      { spawn: ["sleep", "1000"] },
      { stdout: { t: "text", v: "x" } },
      { hang: true },
    ]);
    const ids = [await startRun("a"), await startRun("b")];
    for (const id of ids) await events(id, {}, (e) => e.type === "text.delta");
    expect(fake.pids().length).toBe(2);
    await server.stop();
    for (const pid of fake.pids()) expect(alive(pid)).toBe(false);
  });

  test("50 SSE clients on one run each receive every event, in order", async () => {
    await using tmp = tmpdir();
    const { server, startRun, events } = serve(tmp.path, texts(200, 0));
    try {
      const runId = await startRun();
      const all = await Promise.all(Array.from({ length: 50 }, () => events(runId)));
      const expected = all[0]!.map((e) => e.seq);
      expect(expected).toEqual(expected.map((_, i) => i));
      expect(all[0]!.filter((e) => e.type === "text.delta")).toHaveLength(200);
      for (const got of all) expect(got.map((e) => e.seq)).toEqual(expected);
    } finally {
      await server.stop();
    }
  });

  test("beyond --max-runs a run waits in the queue and says so", async () => {
    await using tmp = tmpdir();
    const { server, api, startRun, events } = serve(tmp.path, [{ stdout: { t: "text", v: "x" } }, { hang: true }], 1);
    try {
      const first = await startRun("first");
      await events(first, {}, (e) => e.type === "text.delta");
      const second = await startRun("second");
      const queued = await events(second, {}, (e) => e.type === "status");
      expect(queued.at(-1)).toMatchObject({ type: "status", label: "queued" });
      await api(`/runs/${first}/cancel`, { method: "POST", body: "{}" });
      const after = await events(second, {}, (e) => e.type === "text.delta");
      expect(after.map((e) => e.type)).toContain("run.started");
    } finally {
      await server.stop();
    }
  });

  test("a second server that cannot bind its port fails with a clear error and leaves the first one's token and runs alone", async () => {
    await using tmp = tmpdir();
    const { server, fake, api, startRun } = serve(tmp.path, [{ stdout: { t: "text", v: "x" } }, { hang: true }]);
    try {
      const runId = await startRun();
      const tokenFile = readFileSync(server.tokenFile, "utf8");
      const port = Number(new URL(server.url).port);
      expect(() => startServer({ host: "127.0.0.1", port, maxRuns: 1, registry, env: fake.env })).toThrow(
        expect.objectContaining({ code: "INVALID_REQUEST", message: `Port ${port} on 127.0.0.1 is in use` }),
      );
      expect(readFileSync(server.tokenFile, "utf8")).toBe(tokenFile);
      expect(((await (await api(`/runs/${runId}`)).json()) as { status: string }).status).toBe("running");
    } finally {
      await server.stop();
    }
  });

  test("a start that fails after binding frees the port and releases its claim on OD_HOME", async () => {
    await using tmp = tmpdir();
    const env = { OD_HOME: join(tmp.path, ".od") };
    mkdirSync(join(env.OD_HOME, "server-token"), { recursive: true }); // the token cannot be written
    expect(() => startServer({ host: "127.0.0.1", port: 0, maxRuns: 1, registry, env })).toThrow();
    expect(existsSync(join(env.OD_HOME, "server.pid"))).toBe(false);
  });

  test("a port or run limit out of range is the user's mistake, said plainly", () => {
    const env = { OD_HOME: "/nonexistent-od-home" };
    expect(() => startServer({ host: "127.0.0.1", port: 70000, maxRuns: 1, registry, env })).toThrow(
      expect.objectContaining({ code: "INVALID_REQUEST" }),
    );
    expect(() => startServer({ host: "127.0.0.1", port: 0, maxRuns: 0, registry, env })).toThrow(
      expect.objectContaining({ code: "INVALID_REQUEST" }),
    );
  });

  test("beyond loopback (a token configured), it answers by any of its names; the token and the origin still guard it", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-agent", [{ stdout: { t: "text", v: "x" } }]);
    const server = startServer({ host: "0.0.0.0", port: 0, maxRuns: 1, registry, env: fake.env, token: "wide-token" });
    try {
      const port = new URL(server.url).port;
      for (const name of ["127.0.0.1", "localhost"])
        expect((await fetch(`http://${name}:${port}/api/agents`, { headers: { "x-od-token": "wide-token" } })).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/api/agents`)).status).toBe(401);
      const post = (origin: string) =>
        fetch(`http://127.0.0.1:${port}/api/runs`, {
          method: "POST",
          headers: { "x-od-token": "wide-token", "content-type": "application/json", origin },
          body: JSON.stringify({ agent: "fake", prompt: "hi", cwd: tmp.path }),
        });
      expect((await post("http://evil.example")).status).toBe(403);
      const ok = await post(`http://127.0.0.1:${port}`);
      expect(ok.status).toBe(201);
      await server.runs.waitFor(((await ok.json()) as { runId: string }).runId);
    } finally {
      await server.stop();
    }
  });

  test("a non-loopback host needs a configured token", () => {
    expect(() => startServer({ host: "0.0.0.0", port: 0, maxRuns: 1, registry, env: { OD_HOME: "/nonexistent-od-home" } })).toThrow(
      expect.objectContaining({ code: "INVALID_REQUEST" }),
    );
  });
});
