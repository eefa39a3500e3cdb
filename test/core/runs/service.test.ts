/** The run service: one door for a run's life, whatever surface holds the handle. */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRegistry } from "../../../src/core/agents/registry.ts";
import type { OdEvent } from "../../../src/core/contract/events.ts";
import { Slots } from "../../../src/core/os/slots.ts";
import { Runs } from "../../../src/core/runs/service.ts";
import { RunLog } from "../../../src/core/store/run-log.ts";
import { collect, installFake, tmpdir } from "../../helpers.ts";
import { fakeAdapter } from "../../support/fake-adapter.ts";

const registry = createRegistry([fakeAdapter]);

function service(dir: string, script: unknown[], over: Partial<ConstructorParameters<typeof Runs>[0]> = {}) {
  const fake = installFake(dir, "fake-agent", script);
  const log = new RunLog(join(dir, "runs"));
  const runs = new Runs({ registry, log, slots: new Slots(1), env: fake.env, ...over });
  return { runs, log, fake };
}

/** Waits for a condition the run service reaches on its own (no sleeps standing in for events). */
async function until(what: string, ok: () => boolean): Promise<void> {
  for (const end = Date.now() + 10_000; !ok(); await Bun.sleep(10)) if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
}

describe("the run service", () => {
  test("a run: recorded with who started it, followed whole, replayed after any seq, and its summary", async () => {
    await using tmp = tmpdir();
    const { runs, log } = service(tmp.path, [{ read: "all" }, { stdout: { t: "session", v: "s-1" } }, { stdout: { t: "text", v: "hi" } }]);
    const run = await runs.start({ agent: "fake", prompt: "go", cwd: tmp.path }, { origin: "library" });
    const seen = await collect(run.events());
    expect(seen.map((e) => e.type)).toEqual(["run.started", "session", "text.delta", "run.result", "run.finished"]);
    expect((await run.done).status).toBe("succeeded");
    expect(JSON.parse(readFileSync(join(log.dir, run.runId, "request.json"), "utf8"))).toMatchObject({
      agent: "fake",
      origin: "library",
      pid: process.pid,
    });
    // A late follower of an ended run gets it from the log: from the start, or after a seq.
    expect(await collect(runs.get(run.runId)?.events() ?? (await replay(runs, run.runId)))).toEqual(seen);
    expect(runs.summary(run.runId)).toMatchObject({ status: "succeeded", sessionId: "s-1", origin: "library" });
  });

  test("a run refused before it started is an error, not history: no record, no run.finished to keep", async () => {
    await using tmp = tmpdir();
    const { runs, log } = service(tmp.path, []);
    await expect(runs.start({ agent: "nope", prompt: "go", cwd: tmp.path }, { origin: "cli" })).rejects.toMatchObject({
      code: "AGENT_UNKNOWN",
    });
    const notInstalled = { ...runs.deps, env: { PATH: "/nonexistent", HOME: tmp.path } };
    await expect(new Runs(notInstalled).start({ agent: "fake", prompt: "go", cwd: tmp.path }, { origin: "cli" })).rejects.toMatchObject({
      code: "AGENT_NOT_FOUND",
    });
    expect(log.list()).toEqual([]);
    expect(runs.list()).toEqual([]);
  });

  test("with every slot taken a run is queued (status and summary) until its agent starts", async () => {
    await using tmp = tmpdir();
    const { runs, fake } = service(tmp.path, [
      { read: "all" },
      { ifStdin: "hold", then: [{ hang: true }] },
      { stdout: { t: "text", v: "ok" } },
    ]);
    const holder = await runs.start({ agent: "fake", prompt: "hold", cwd: tmp.path }, { origin: "serve" });
    await until("the first agent to start", () => existsSync(fake.env.FAKE_RECORD!));
    const waiting = await runs.start({ agent: "fake", prompt: "next", cwd: tmp.path }, { origin: "serve" });
    expect(waiting.status).toBe("queued");
    expect(runs.list().find((r) => r.kind === "run" && r.runId === waiting.runId)).toMatchObject({ status: "queued" });
    holder.cancel();
    await until("the queued run to start", () => waiting.status !== "queued");
    expect((await waiting.done).status).toBe("succeeded");
  });

  test("a log that cannot be written: best-effort (a terminal) warns once and runs on; required (a server) refuses the run", async () => {
    await using tmp = tmpdir();
    writeFileSync(join(tmp.path, "not-a-dir"), "");
    const warnings: string[] = [];
    const bare = service(tmp.path, [{ read: "all" }, { stdout: { t: "text", v: "hi" } }], {
      log: new RunLog(join(tmp.path, "not-a-dir", "runs")),
      recording: "best-effort",
      warn: (m) => warnings.push(m),
    });
    const run = await bare.runs.start({ agent: "fake", prompt: "go", cwd: tmp.path }, { origin: "cli" });
    expect((await collect(run.events())).at(-1)).toMatchObject({ type: "run.finished", status: "succeeded" });
    expect(warnings).toEqual([expect.stringContaining("not kept in od's history")]);
    const strict = new Runs({ ...bare.runs.deps, recording: "required", warn: () => {} });
    await expect(strict.start({ agent: "fake", prompt: "go", cwd: tmp.path }, { origin: "serve" })).rejects.toMatchObject({
      code: "STORAGE",
    });
  });

  test("passed: the events in the arrays they passed in, a chunk's lines together, each with its run log line", async () => {
    await using tmp = tmpdir();
    const lines = Array.from({ length: 20 }, (_, i) => JSON.stringify({ t: "text", v: `part ${i}` }));
    const { runs, log } = service(tmp.path, [{ read: "all" }, { raw: `${lines.join("\n")}\n` }]);
    const run = await runs.start({ agent: "fake", prompt: "go", cwd: tmp.path }, { origin: "library" });
    const batches = await Array.fromAsync(run.passed());
    await run.done;
    const passed = batches.flat();
    expect(passed.map((p) => p.event.seq)).toEqual(passed.map((_, i) => i));
    expect(passed.filter((p) => p.event.type === "text.delta")).toHaveLength(20);
    // One write of 20 lines is read in far fewer steps than 20.
    expect(batches.length).toBeLessThan(10);
    for (const p of passed) expect(JSON.parse(p.json)).toEqual(p.event);
    const logged = readFileSync(join(log.dir, run.runId, "events.jsonl"), "utf8")
      .trimEnd()
      .split("\n");
    expect(passed.map((p) => p.json)).toEqual(logged);
  });

  test("a follower that falls behind holds the run back, and the run goes on when it breaks off", async () => {
    await using tmp = tmpdir();
    const lines = Array.from({ length: 3000 }, (_, i) => ({ stdout: { t: "text", v: `line ${i}` } }));
    const { runs } = service(tmp.path, [{ read: "all" }, ...lines]);
    const run = await runs.start({ agent: "fake", prompt: "go", cwd: tmp.path }, { origin: "library" });
    let taken = 0;
    for await (const _ of run.events()) if (++taken === 10) break;
    expect((await run.done).status).toBe("succeeded");
  });
});

/** A run that is not live any more, followed from its log. */
async function replay(runs: Runs, runId: string): Promise<AsyncIterable<OdEvent>> {
  const batch = runs.read(runId, { seq: -1 }, 1 << 20);
  return (async function* () {
    for (const e of batch.events) yield JSON.parse(e.json) as OdEvent;
  })();
}
