/**
 * `od serve` with a plugin whose thread is slow to load and whose parse spins: od's thread never
 * waits for it, so /api/health answers throughout and another run streams meanwhile. In process,
 * on purpose: a server thread held by the plugin would hold this test's timers too, and show.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { loadRegistry } from "../../src/builtins.ts";
import { createRegistry } from "../../src/core/agents/registry.ts";
import type { OdEvent } from "../../src/core/contract/events.ts";
import { Slots } from "../../src/core/os/slots.ts";
import { Runs } from "../../src/core/runs/service.ts";
import { RunLog } from "../../src/core/store/run-log.ts";
import { createApp } from "../../src/server/app.ts";
import { installFake, tmpdir } from "../helpers.ts";
import { eventsOf, HOST, readFrames, TOKEN } from "../server/support.ts";
import { fakeAdapter } from "../support/fake-adapter.ts";
import { pluginSource, writePlugins } from "./support.ts";

/** 1.5 s to load in its own thread (od's own import of it is quick), and a parse that never returns on "spin". */
const slowSpinning = pluginSource("spin-agent", {
  top: "if (!Bun.isMainThread) { const t = Date.now(); while (Date.now() - t < 1500) {} }",
  parse: `if (r.v === "spin") while (true) {} return [{ type: "text.delta", id: "t", text: r.v }];`,
});

async function serveApp(dir: string) {
  const spin = [{ read: "all" }, { stdout: { t: "text", v: "hello" } }, { stdout: { t: "text", v: "spin" } }, { sleep: 60_000 }];
  installFake(dir, "spin-agent", spin);
  const deltas = Array.from({ length: 35 }, (_, i) => [{ stdout: { t: "text", v: `d${i}` } }, { sleep: 100 }]).flat();
  const fake = installFake(dir, "fake-agent", [{ read: "all" }, ...deltas]);
  const loaded = await loadRegistry([writePlugins(dir, { "spin.ts": slowSpinning })]);
  expect(loaded.errors).toEqual([]);
  const registry = createRegistry([fakeAdapter, loaded.get("spin-agent")!]);
  const runs = new Runs({ registry, log: new RunLog(join(dir, "runs")), slots: new Slots(8), env: fake.env });
  const app = createApp({ registry, runs, token: TOKEN, allowedHosts: [HOST], env: fake.env, maxBodyBytes: 64 * 1024 });
  const headers = { host: HOST, "x-od-token": TOKEN, "content-type": "application/json" };
  return (path: string, json?: unknown) =>
    app.request(path, json === undefined ? { headers } : { method: "POST", headers, body: JSON.stringify(json) });
}

/** A run's events as they stream, each with when it arrived. */
async function streamed(request: (path: string) => Response | Promise<Response>, runId: string) {
  const at: number[] = [];
  const frames = await readFrames((await request(`/api/runs/${runId}/events`)).body!, (f) => {
    if (f.data) at.push(performance.now());
    return false;
  });
  return eventsOf(frames).map((event, i) => ({ event, at: at[i]! }));
}

test("od serve: /api/health answers throughout, and another run streams, while a plugin loads for 1.5 s and then its parse spins", async () => {
  await using tmp = tmpdir();
  const request = await serveApp(tmp.path);
  const start = async (agent: string) =>
    ((await (await request("/api/runs", { agent, prompt: "hi", cwd: tmp.path, timeoutMs: 20_000 })).json()) as { runId: string }).runId;
  const t0 = performance.now();
  const plugin = streamed(request, await start("spin-agent"));
  const other = streamed(request, await start("fake"));
  let over = false;
  void plugin.finally(() => (over = true));
  const checks: number[] = [];
  for (let last = performance.now(); !over; ) {
    const asked = performance.now();
    expect(await (await request("/api/health")).json()).toEqual({ ok: true });
    checks.push(performance.now() - asked);
    await Bun.sleep(50);
    expect(performance.now() - last).toBeLessThan(300); // od's thread was never held between two checks
    last = performance.now();
  }
  const pluginEvents = await plugin;
  const error = pluginEvents.find(({ event }) => event.type === "error");
  expect(error?.event).toMatchObject({ code: "PLUGIN_ERROR" });
  expect(error!.at - t0).toBeGreaterThan(3000); // it did hold its own run: 1.5 s to load, then the 2 s watchdog
  expect(pluginEvents.at(-1)?.event).toMatchObject({ type: "run.finished", status: "failed" });
  expect(checks.length).toBeGreaterThan(20);
  expect(Math.max(...checks)).toBeLessThan(200);
  // The other run streamed all the while: its deltas came about every 100 ms, none held back.
  const deltas = (await other).filter(({ event }) => event.type === "text.delta");
  expect(deltas.map(({ event }) => (event as Extract<OdEvent, { type: "text.delta" }>).text)).toEqual(
    Array.from({ length: 35 }, (_, i) => `d${i}`),
  );
  expect(Math.max(...deltas.slice(1).map((d, i) => d.at - deltas[i]!.at))).toBeLessThan(400);
  expect(deltas[0]!.at).toBeLessThan(error!.at - 2000);
}, 30_000);
