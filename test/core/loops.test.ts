// The third protocol kind: an agent loop inside od, run by the pipeline where it would spawn.
import { describe, expect, test } from "bun:test";
import api from "../../plugins/api.ts";
import { validateAdapter } from "../../src/core/agents/adapter.ts";
import { detectOne } from "../../src/core/agents/detect.ts";
import { detectCached } from "../../src/core/agents/detect-cache.ts";
import { createRegistry } from "../../src/core/agents/registry.ts";
import type { OdEventBody } from "../../src/core/events.ts";
import { loopDriver, loops } from "../../src/core/loops/index.ts";
import { type Loop, LoopProcess } from "../../src/core/loops/transport.ts";
import { planRun, runAgent } from "../../src/core/run/run.ts";
import { VERSION } from "../../src/core/version.ts";
import { collect, finished, ofType, tmpdir } from "../helpers.ts";

const spec = { argv: [], env: {}, cwd: "/", stdin: "p" };

async function drain(proc: LoopProcess): Promise<OdEventBody[]> {
  const out: OdEventBody[] = [];
  for await (const f of proc.lines()) if (f.kind === "line") out.push(JSON.parse(f.text));
  return out;
}

describe("loop transport", () => {
  test("the loop's events come out as lines; a normal return exits 0", async () => {
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

  test("the loop driver passes valid event bodies and keeps anything else as raw", () => {
    const { state } = loopDriver.start({ agent: { name: "x" }, prompt: "p", cwd: "/", mode: "edit" });
    const pass = (record: unknown) => loopDriver.receive(record, state, JSON.stringify(record) ?? "").events[0];
    expect(pass({ type: "text.delta", id: "a", text: "b" })).toEqual({ type: "text.delta", id: "a", text: "b" });
    for (const bad of [
      null,
      1,
      "s",
      [],
      {},
      { type: "text.delta" },
      { type: "run.finished", status: "succeeded", exitCode: 0, signal: null, durationMs: 1, resumable: false },
    ])
      expect(pass(bad)).toMatchObject({ type: "raw", stream: "stdout" });
  });
});

describe("the api adapter in the pipeline", () => {
  test("passes the adapter schema; its loop is registered under its name", () => {
    expect(validateAdapter(api).protocol).toEqual({ kind: "loop", loop: "api" });
    expect(Object.keys(loops)).toContain("api");
  });

  test("detection: missing until a key or an endpoint is set, then ready at that endpoint; never cached", async () => {
    await using tmp = tmpdir();
    const adapter = validateAdapter(api);
    const none = await detectOne(adapter, { HOME: tmp.path, PATH: "/usr/bin" });
    expect(none).toMatchObject({ status: "missing", installed: false, auth: "missing" });
    expect(none.problems[0]!.message).toContain("ANTHROPIC_API_KEY");
    expect(await detectOne(adapter, { ANTHROPIC_API_KEY: "k" })).toMatchObject({
      status: "ready",
      installed: true,
      auth: "ok",
      version: VERSION,
      path: "anthropic https://api.anthropic.com",
    });
    expect(await detectOne(adapter, { OD_API_BASE_URL: "http://localhost:11434" })).toMatchObject({
      status: "ready",
      path: "openai http://localhost:11434/v1",
    });
    const env = { HOME: tmp.path, OD_HOME: tmp.path, OPENAI_API_KEY: "k" };
    expect((await detectCached([adapter], { env })).detections[0]!.status).toBe("ready");
    expect((await detectCached([adapter], { env: { ...env, OPENAI_API_KEY: "" } })).detections[0]!.status).toBe("missing");
  });

  test("--dry-run shows the loop's argv and the prompt as its stdin, resolved without an executable", async () => {
    await using tmp = tmpdir();
    const plan = await planRun(
      { agent: "api", prompt: "hello", cwd: tmp.path, mode: "read-only", model: "m" },
      { registry: createRegistry([api]), env: {} },
    );
    expect(plan).toMatchObject({ bin: "od:api", resolved: true, argv: ["od:api", "--mode", "read-only", "--model", "m"], stdin: "hello" });
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
