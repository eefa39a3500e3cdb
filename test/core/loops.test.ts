// The third protocol kind: an agent loop inside od, run by the pipeline where it would spawn.
import { describe, expect, test } from "bun:test";
import api from "../../plugins/api.ts";
import { detectOne } from "../../src/core/agents/detect.ts";
import { detectCached } from "../../src/core/agents/detect-cache.ts";
import { createRegistry } from "../../src/core/agents/registry.ts";
import { validateAdapter } from "../../src/core/contract/adapter.ts";
import type { OdEventBody } from "../../src/core/contract/events.ts";
import type { Loop, LoopContext } from "../../src/core/contract/loop.ts";
import { loopDriver, loops } from "../../src/core/loops/index.ts";
import { checked, LoopProcess } from "../../src/core/loops/transport.ts";
import { VERSION } from "../../src/core/os/version.ts";
import { collect, finished, ofType, tmpdir } from "../helpers.ts";
import { planRun, runAgent } from "../support/run.ts";

const spec = { argv: [], env: {}, cwd: "/", stdin: "p", settings: { mode: "edit" as const } };

/** Every frame is an event frame: a loop yields bodies, never lines to parse. */
async function drain(proc: LoopProcess): Promise<OdEventBody[]> {
  const out: OdEventBody[] = [];
  for await (const f of proc.lines()) {
    if (f.kind !== "event") throw new Error(`a loop yielded a ${f.kind} frame`);
    out.push(f.body);
  }
  return out;
}

const RUN_FINISHED = { type: "run.finished", status: "succeeded", exitCode: 0, signal: null, durationMs: 1, resumable: false };
const NOT_BODIES: unknown[] = [null, 1, "s", [], {}, { type: "text.delta" }, { type: "nope" }, RUN_FINISHED, { type: "run.started" }];

describe("loop transport", () => {
  test("the loop's events come out as event frames; a normal return exits 0", async () => {
    const loop: Loop = {
      name: "t",
      async *run(ctx) {
        ctx.note("a note");
        yield { type: "text.delta", id: "x", text: `got ${ctx.prompt}` };
      },
    };
    const proc = new LoopProcess(loop, spec);
    expect(await drain(proc)).toEqual([{ type: "text.delta", id: "x", text: "got p" }]);
    expect(await proc.exited).toEqual({ exitCode: 0, signal: null });
    expect(await proc.stderrTail()).toBe("a note\n");
  });

  test("the loop gets the run's settings typed, the prompt, env and cwd; argv is display only", async () => {
    let seen: Omit<LoopContext, "signal" | "note"> | undefined;
    const loop: Loop = {
      name: "t",
      async *run({ signal: _s, note: _n, ...ctx }) {
        seen = ctx;
      },
    };
    const settings = { mode: "read-only" as const, model: "m", resume: "s-1", maxTurns: 4 };
    const proc = new LoopProcess(loop, { argv: ["shown"], env: { A: "1" }, cwd: "/w", stdin: "hi", settings });
    expect(await drain(proc)).toEqual([]);
    expect(seen).toEqual({ settings, env: { A: "1" }, cwd: "/w", prompt: "hi" });
  });

  test("run.* events and anything that is not a valid body come out as raw, the rest as is", async () => {
    const good: OdEventBody = { type: "text.delta", id: "a", text: "b" };
    const loop: Loop = {
      name: "t",
      async *run() {
        for (const b of [good, ...NOT_BODIES]) yield b as OdEventBody; // a loop's types can be escaped; the guard still holds
      },
    };
    const out = await drain(new LoopProcess(loop, spec));
    expect(out[0]).toBe(good);
    expect(out.slice(1)).toEqual(NOT_BODIES.map((b) => ({ type: "raw", stream: "stdout", line: JSON.stringify(b) })));
    const cyclic: Record<string, unknown> = { type: "status" };
    cyclic.self = cyclic;
    expect(checked(cyclic)).toEqual({ type: "raw", stream: "stdout", line: "[object Object]" });
  });

  test("a loop that throws reports one error event and exits 1", async () => {
    const loop: Loop = {
      name: "t",
      async *run() {
        throw new Error("boom");
      },
    };
    const proc = new LoopProcess(loop, spec);
    expect(await drain(proc)).toEqual([expect.objectContaining({ type: "error", code: "INTERNAL", message: "boom" })]);
    expect(await proc.exited).toEqual({ exitCode: 1, signal: null });
  });

  test("cancel aborts the loop; one that ignores the abort is abandoned after the ladder's time", async () => {
    const polite: Loop = {
      name: "t",
      async *run(ctx) {
        yield { type: "status", label: "waiting" };
        await new Promise((r) => ctx.signal.addEventListener("abort", r));
      },
    };
    const a = new LoopProcess(polite, spec);
    const lines = a.lines();
    await lines.next(); // it is running, and listening for the abort
    await a.cancel({ intMs: 5000, termMs: 5000, killMs: 5000 }); // it ends at once, long before any of these
    expect(await a.exited).toEqual({ exitCode: null, signal: null });
    await lines.return(undefined);
    expect(await a.stderrTail()).not.toContain("abandoned");

    const stubborn: Loop = {
      name: "t",
      async *run() {
        yield { type: "status", label: "waiting" };
        await new Promise(() => {});
      },
    };
    const b = new LoopProcess(stubborn, spec);
    const started = performance.now();
    await b.cancel({ intMs: 20, termMs: 20, killMs: 20 });
    expect(performance.now() - started).toBeLessThan(2000); // abandoned after the ladder's 60 ms, not left waiting
    expect(await b.exited).toEqual({ exitCode: null, signal: null });
    expect(await drain(b)).toEqual([{ type: "status", label: "waiting" }]);
    expect(await b.stderrTail()).toContain("abandoned");
  });

  test("the loop driver, handed a line, applies the same check and keeps the line as it was", () => {
    const { state } = loopDriver.start({ agent: { name: "x" }, prompt: "p", cwd: "/", mode: "edit" });
    const pass = (record: unknown) => loopDriver.receive(record, state, ` ${JSON.stringify(record)}`).events[0];
    expect(pass({ type: "text.delta", id: "a", text: "b" })).toEqual({ type: "text.delta", id: "a", text: "b" });
    for (const bad of NOT_BODIES) expect(pass(bad)).toEqual({ type: "raw", stream: "stdout", line: ` ${JSON.stringify(bad)}` });
  });
});

describe("the api adapter in the pipeline", () => {
  test("passes the adapter schema; its loop is registered under its name", () => {
    expect(validateAdapter(api).protocol).toEqual({ kind: "loop", loop: "api" });
    expect(Object.keys(loops)).toContain("api");
  });

  test("detection: missing until a key or an endpoint is set, then ready at that endpoint when it answers; cached per endpoint and key", async () => {
    await using tmp = tmpdir();
    // A server with a model list, and one that refuses every key: the endpoint itself is asked.
    let answer = () => Response.json({ data: [{ id: "m1" }, { id: "m2" }] });
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => answer() });
    const base = `http://127.0.0.1:${server.port}`;
    try {
      const adapter = validateAdapter(api);
      const none = await detectOne(adapter, { HOME: tmp.path, PATH: "/usr/bin" });
      expect(none).toMatchObject({ status: "missing", installed: false, auth: "missing" });
      expect(none.problems[0]!.message).toContain("ANTHROPIC_API_KEY");
      expect(await detectOne(adapter, { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: base })).toMatchObject({
        status: "ready",
        installed: true,
        auth: "ok",
        version: VERSION,
        path: `anthropic ${base}`,
        models: ["m1", "m2"],
      });
      expect(await detectOne(adapter, { OD_API_BASE_URL: base })).toMatchObject({ status: "ready", path: `openai ${base}/v1` });
      const env = { HOME: tmp.path, OD_HOME: tmp.path, OPENAI_API_KEY: "k", OPENAI_BASE_URL: `${base}/v1` };
      expect((await detectCached([adapter], { env })).detections[0]!.status).toBe("ready");
      expect((await detectCached([adapter], { env })).cached).toEqual(["api"]);
      expect((await detectCached([adapter], { env: { ...env, OPENAI_API_KEY: "" } })).detections[0]!.status).toBe("missing");
      // Another key is another detection: this one the endpoint refuses.
      answer = () => Response.json({ error: { message: "bad key" } }, { status: 401 });
      const refused = (await detectCached([adapter], { env: { ...env, OPENAI_API_KEY: "k2" } })).detections[0]!;
      expect(refused).toMatchObject({ status: "logged-out", auth: "missing", problems: [{ code: "AGENT_AUTH_REQUIRED" }] });
    } finally {
      await server.stop(true);
    }
  });

  test("--dry-run shows the loop's label and the prompt as its stdin, resolved without an executable", async () => {
    await using tmp = tmpdir();
    const plan = await planRun(
      { agent: "api", prompt: "hello", cwd: tmp.path, mode: "read-only", model: "m" },
      { registry: createRegistry([api]), env: {} },
    );
    // The loop's settings are handed over typed, not as flags: its argv is empty, the label alone.
    expect(plan).toMatchObject({ bin: "od:api", resolved: true, argv: ["od:api"], stdin: "hello" });
  });

  test("an adapter naming an unknown loop fails cleanly, with one run.finished", async () => {
    await using tmp = tmpdir();
    const registry = createRegistry([{ ...api, id: "ghost", protocol: { kind: "loop", loop: "nope" } }]);
    const events = await collect(runAgent({ agent: "ghost", prompt: "x", cwd: tmp.path }, { registry, env: {} }));
    expect(ofType(events, "error")[0]).toMatchObject({ code: "INTERNAL" });
    expect(ofType(events, "error")[0]!.message).toContain('unknown agent loop "nope"');
    expect(finished(events).status).toBe("failed");
  });
});
