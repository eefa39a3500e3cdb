import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createRegistry } from "../../../src/core/agents/registry.ts";
import { OdError } from "../../../src/core/contract/errors.ts";
import { Slots } from "../../../src/core/os/slots.ts";
import { alive, collect, type FakeStep, finished, installFake, ofType, tmpdir } from "../../helpers.ts";
import { fakeAdapter } from "../../support/fake-adapter.ts";
import { planRun, runAgent } from "../../support/run.ts";

const registry = createRegistry([fakeAdapter]);
const fast = { intMs: 300, termMs: 300, killMs: 500 };

async function run(script: FakeStep[], request: Record<string, unknown> = {}, opts: { signal?: AbortSignal } = {}) {
  await using tmp = tmpdir();
  const fake = installFake(tmp.path, "fake-agent", script);
  const events = await collect(
    runAgent({ agent: "fake", prompt: "hello there", cwd: tmp.path, ...request } as never, {
      registry,
      env: fake.env,
      ladder: fast,
      ...opts,
    }),
  );
  let recorded: ReturnType<typeof fake.recorded> | undefined;
  try {
    recorded = fake.recorded();
  } catch {}
  return { events, recorded, pids: fake.pids() };
}

describe("runAgent", () => {
  test("a plain answer: started, text, one succeeded run.finished, envelope stamped", async () => {
    const { events, recorded } = await run([{ read: "all" }, { stdout: { t: "session", v: "s-1" } }, { stdout: { t: "text", v: "hi" } }]);
    expect(events.map((e) => e.type)).toEqual(["run.started", "session", "text.delta", "run.result", "run.finished"]);
    expect(events.map((e) => e.seq)).toEqual([0, 1, 2, 3, 4]);
    expect(new Set(events.map((e) => e.runId)).size).toBe(1);
    // Stamped in order, once: no event carries a later time than the one after it.
    expect(events.map((e) => e.ts)).toEqual(events.map((e) => e.ts).toSorted((a, b) => a - b));
    expect(finished(events)).toMatchObject({ status: "succeeded", exitCode: 0, signal: null, sessionId: "s-1", resumable: true });
    // The prompt went on stdin, not argv.
    expect(recorded?.stdin).toEqual(["hello there"]);
    expect(recorded?.argv).toEqual(["--mode", "edit"]);
    expect(ofType(events, "run.started")[0]).toMatchObject({ agent: "fake", mode: "edit" });
  });

  test("model, effort and resume reach the invocation; `default` means no model flag", async () => {
    const { recorded } = await run([{ stdout: { t: "text", v: "x" } }], { model: "m1", effort: "high", resume: "s-9", mode: "read-only" });
    expect(recorded?.argv).toEqual(["--mode", "read-only", "--model", "m1", "--effort", "high", "--resume", "s-9"]);
    const again = await run([{ stdout: { t: "text", v: "x" } }], { model: "default" });
    expect(again.recorded?.argv).toEqual(["--mode", "edit"]);
  });

  test("an unknown effort is refused before anything is spawned, with the valid list", async () => {
    const { events, recorded } = await run([{ stdout: { t: "text", v: "x" } }], { effort: "ultra" });
    expect(recorded).toBeUndefined();
    expect(ofType(events, "error")[0]).toMatchObject({ code: "MODEL_NOT_AVAILABLE", hint: "Valid efforts: low, high." });
    expect(finished(events).status).toBe("failed");
  });

  test("a clean exit with no output is EMPTY_OUTPUT, not success", async () => {
    const { events } = await run([{ stderr: "nothing to say\n" }]);
    expect(ofType(events, "error")[0]).toMatchObject({ code: "EMPTY_OUTPUT", hint: "nothing to say" });
    expect(finished(events)).toMatchObject({ status: "failed", exitCode: 0 });
  });

  test("a non-zero exit goes through the adapter's classifier", async () => {
    const { events } = await run([{ stderr: "HTTP 401 from provider\n" }, { exit: 1 }]);
    expect(ofType(events, "error")[0]).toMatchObject({ code: "AGENT_AUTH_REQUIRED", hint: "fake login" });
    expect(finished(events)).toMatchObject({ status: "failed", exitCode: 1 });
  });

  test("an unclassified crash mid-stream is AGENT_CRASHED with the stderr's last line, and open tools are closed", async () => {
    const { events } = await run([{ stdout: { t: "tool", id: "c1", name: "Write" } }, { stderr: "segfault somewhere\n" }, { exit: 3 }]);
    const [result] = ofType(events, "tool.result");
    expect(result).toMatchObject({ id: "c1", isError: true });
    expect(ofType(events, "error")[0]).toMatchObject({ code: "AGENT_CRASHED" });
    expect(ofType(events, "error")[0]!.message).toContain("segfault somewhere");
    expect(finished(events)).toMatchObject({ status: "failed", exitCode: 3 });
  });

  test("death by signal reports the signal", async () => {
    const { events } = await run([{ stdout: { t: "text", v: "partial" } }, { kill: "SIGKILL" }]);
    expect(finished(events)).toMatchObject({ status: "failed", exitCode: null, signal: "SIGKILL" });
    expect(ofType(events, "error")[0]!.message).toContain("SIGKILL");
  });

  test("an error the agent reports in its stream fails the run even on exit 0", async () => {
    const { events } = await run([{ stdout: { t: "text", v: "hm" } }, { stdout: { t: "fail", v: "quota" } }]);
    expect(ofType(events, "error")).toHaveLength(1);
    expect(finished(events)).toMatchObject({ status: "failed", exitCode: 0 });
  });

  test("garbage lines, a throwing parser, a parser that answers no list and an invalid event are kept as raw; the run is unharmed", async () => {
    const { events } = await run([
      { raw: "not json at all\n" },
      { stdout: { t: "throw" } },
      { stdout: { t: "bad" } },
      { stdout: { t: "nothing" } },
      { stdout: { t: "mystery", x: 1 } },
      { stdout: { t: "text", v: "fine" } },
    ]);
    expect(ofType(events, "raw").map((e) => e.line)).toEqual([
      "not json at all",
      '{"t":"throw"}',
      '{"t":"bad"}',
      '{"t":"nothing"}',
      '{"t":"mystery","x":1}',
    ]);
    expect(ofType(events, "text.delta").map((e) => e.text)).toEqual(["fine"]);
    expect(finished(events).status).toBe("succeeded");
  });

  test("a missing executable is AGENT_NOT_FOUND with the install hint", async () => {
    await using tmp = tmpdir();
    // Every slot is taken: a CLI that is not there is said at once, not after a wait for a slot it would never use.
    const slots = new Slots(1);
    const release = slots.tryAcquire()!;
    const events = await collect(runAgent({ agent: "fake", prompt: "x", cwd: tmp.path }, { registry, env: { PATH: tmp.path }, slots }));
    release();
    expect(events.map((e) => e.type)).toEqual(["error", "run.result", "run.finished"]);
    expect(ofType(events, "error")[0]).toMatchObject({ code: "AGENT_NOT_FOUND", hint: expect.stringContaining("nothing to install") });
    expect(finished(events)).toMatchObject({ status: "failed", exitCode: null });
  });

  test("resolveCwd decides the cwd once the slot is held: the agent runs where it says, or not at all when it throws", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-agent", [{ read: "all" }, { stdout: { t: "text", v: "here" } }]);
    const elsewhere = join(tmp.path, "elsewhere");
    mkdirSync(elsewhere);
    const slots = new Slots(1);
    const asked: string[] = [];
    const release = slots.tryAcquire()!;
    const moved = [];
    const opts = { registry, env: fake.env, slots, resolveCwd: (cwd: string) => (asked.push(cwd), elsewhere) };
    for await (const e of runAgent({ agent: "fake", prompt: "x", cwd: tmp.path }, opts)) {
      moved.push(e);
      if (e.type !== "status" || e.label !== "queued") continue;
      expect(asked).toEqual([]); // not while the run waits for its slot
      release();
    }
    expect(asked).toEqual([tmp.path]);
    expect(ofType(moved, "run.started")[0]?.cwd).toBe(elsewhere);
    expect(fake.recorded().cwd).toBe(elsewhere);
    rmSync(fake.env.FAKE_RECORD!);
    const refuse = () => {
      throw new OdError("FORBIDDEN", "not there any more");
    };
    const refused = await collect(
      runAgent({ agent: "fake", prompt: "x", cwd: tmp.path }, { registry, env: fake.env, slots, resolveCwd: refuse }),
    );
    expect(refused.map((e) => e.type)).toEqual(["error", "run.result", "run.finished"]);
    expect(ofType(refused, "error")[0]).toMatchObject({ code: "FORBIDDEN", message: "not there any more" });
    expect(finished(refused).status).toBe("failed");
    expect(existsSync(fake.env.FAKE_RECORD!)).toBe(false); // never spawned
    expect(slots.running).toBe(0); // its slot given back
  });

  test("bad requests fail before spawning: unknown agent, empty prompt, missing cwd", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ agent: "nope", prompt: "x" }, "AGENT_UNKNOWN"],
      [{ agent: "fake", prompt: "   " }, "INVALID_REQUEST"],
      [{ agent: "fake", prompt: "x", cwd: "/definitely/not/here" }, "INVALID_REQUEST"],
      [{ agent: "fake", prompt: "x", mode: "yolo" }, "INVALID_REQUEST"],
    ];
    for (const [request, code] of cases) {
      const events = await collect(runAgent(request as never, { registry }));
      expect(ofType(events, "error")[0]?.code).toBe(code as never);
      expect(finished(events).status).toBe("failed");
    }
  });

  test("cancel mid-stream: cancelled status, the whole process group gone, grandchildren included", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-agent", [
      { ignore: "SIGINT" },
      { spawn: ["sleep", "1000"] },
      { spawn: ["sh", "-c", "sleep 1000 & sleep 1000"] },
      { stdout: { t: "text", v: "working" } },
      { hang: true },
    ]);
    const controller = new AbortController();
    const events = [];
    for await (const e of runAgent(
      { agent: "fake", prompt: "x", cwd: tmp.path },
      { registry, env: fake.env, signal: controller.signal, ladder: fast },
    )) {
      events.push(e);
      if (e.type === "text.delta") controller.abort();
    }
    expect(finished(events).status).toBe("cancelled");
    expect(ofType(events, "error")).toHaveLength(0);
    expect(fake.pids()).toHaveLength(2);
    for (const child of fake.pids()) expect(alive(child)).toBe(false);
  });

  test("a timeout ends the run with TIMEOUT and kills it", async () => {
    const { events, pids } = await run([{ spawn: ["sleep", "1000"] }, { stdout: { t: "text", v: "slow" } }, { hang: true }], {
      timeoutMs: 300,
    });
    expect(ofType(events, "error")[0]).toMatchObject({ code: "TIMEOUT", retryable: true });
    expect(finished(events).status).toBe("failed");
    for (const child of pids) expect(alive(child)).toBe(false);
  });

  test("a consumer that stops iterating early leaves no process behind", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-agent", [{ spawn: ["sleep", "1000"] }, { stdout: { t: "text", v: "one" } }, { hang: true }]);
    let grandchild = 0;
    for await (const e of runAgent({ agent: "fake", prompt: "x", cwd: tmp.path }, { registry, env: fake.env, ladder: fast })) {
      if (e.type === "run.started") continue;
      grandchild = fake.pids()[0] ?? 0;
      break;
    }
    expect(grandchild).toBeGreaterThan(0);
    expect(alive(grandchild)).toBe(false);
  });

  test("an already-aborted signal spawns nothing and reports cancelled", async () => {
    const controller = new AbortController();
    controller.abort();
    const { events, recorded } = await run([{ stdout: { t: "text", v: "x" } }], {}, { signal: controller.signal });
    expect(recorded).toBeUndefined();
    expect(events.map((e) => e.type)).toEqual(["run.result", "run.finished"]);
    expect(finished(events).status).toBe("cancelled");
  });

  test("an oversized line becomes OUTPUT_LINE_TOO_LARGE and the run goes on", async () => {
    const { events } = await run([{ bigLine: 17 * 1024 * 1024 }, { stdout: { t: "text", v: "after" } }]);
    expect(ofType(events, "error")[0]).toMatchObject({ code: "OUTPUT_LINE_TOO_LARGE" });
    expect(ofType(events, "text.delta")[0]?.text).toBe("after");
  });
});

describe("plain-text line protocols", () => {
  test("every stdout line reaches parse as a string, blank lines included", async () => {
    const { defineAdapter } = await import("../../../src/plugin.ts");
    const textAdapter = defineAdapter({
      ...fakeAdapter,
      id: "plain",
      protocol: {
        kind: "lines",
        format: "text",
        createState: () => ({ n: 0 }),
        parse: (line: unknown, s: { n: number }) => [{ type: "text.delta", id: "t", text: `${s.n++}:${String(line)}\n` }],
      },
    });
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-agent", [{ raw: 'hello\n\n{"not":"parsed"}\n' }]);
    const events = await collect(
      runAgent({ agent: "plain", prompt: "x", cwd: tmp.path }, { registry: createRegistry([textAdapter]), env: fake.env }),
    );
    expect(
      ofType(events, "text.delta")
        .map((e) => e.text)
        .join(""),
    ).toBe('0:hello\n1:\n2:{"not":"parsed"}\n');
    expect(finished(events).status).toBe("succeeded");
  });
});

describe("prompt files", () => {
  test("a CLI that reads its prompt from a file gets a private one, removed after the run", async () => {
    const { defineAdapter } = await import("../../../src/plugin.ts");
    const fileAdapter = defineAdapter({
      ...fakeAdapter,
      id: "filed",
      prompt: { via: "file" },
      invoke: (ctx) => ({ argv: ["--prompt-file", ctx.promptFile ?? ""] }),
    });
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-agent", [{ stdout: { t: "text", v: "ok" } }]);
    const events = await collect(
      runAgent({ agent: "filed", prompt: "from a file ☃", cwd: tmp.path }, { registry: createRegistry([fileAdapter]), env: fake.env }),
    );
    const path = fake.recorded().argv[1]!;
    expect(path).toMatch(/od-prompt-.*\/prompt\.md$/);
    expect(finished(events).status).toBe("succeeded");
    expect(existsSync(path)).toBe(false); // removed after the run
    const plan = await planRun({ agent: "filed", prompt: "p", cwd: tmp.path }, { registry: createRegistry([fileAdapter]), env: fake.env });
    expect(plan.promptFile).toEqual({ path: expect.stringContaining("od-prompt-"), content: "p" });
  });
});

describe("degraded mode", () => {
  test("broken JSON mid-stream: its text is salvaged, the run says it is degraded and is not resumable", async () => {
    const { events } = await run([
      { stdout: { t: "session", v: "s-1" } },
      { stdout: { t: "text", v: "first " } },
      { raw: '{"type":"assistant","message":{"content":[{"type":"text","text":"and salvaged \\"words\\""}]\n' },
      { raw: "a plain log line\n" },
    ]);
    expect(ofType(events, "status").map((e) => e.label)).toEqual(["degraded"]);
    expect(
      ofType(events, "text.delta")
        .map((e) => e.text)
        .join(""),
    ).toBe('first \n\nand salvaged "words"'); // the salvage is a part of its own
    expect(ofType(events, "raw").map((e) => e.line)).toContain("a plain log line");
    expect(finished(events)).toMatchObject({ status: "succeeded", sessionId: "s-1", resumable: false });
  });
});

describe("pass-through limits", () => {
  test("--allowed-tools and --max-turns only where the CLI takes them, and never pre-approved tools in read-only", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ maxTurns: 3 }, "takes no turn limit"],
      [{ allowedTools: ["Edit"] }, "takes no list of allowed tools"],
    ];
    for (const [extra, message] of cases) {
      const { events } = await run([{ stdout: { t: "text", v: "x" } }], extra);
      expect(ofType(events, "error")[0]?.message).toContain(message);
    }
    const { defineAdapter } = await import("../../../src/plugin.ts");
    const capable = defineAdapter({ ...fakeAdapter, id: "capable", capabilities: { ...fakeAdapter.capabilities, allowedTools: true } });
    await using tmp = tmpdir();
    const events = await collect(
      runAgent(
        { agent: "capable", prompt: "x", cwd: tmp.path, mode: "read-only", allowedTools: ["Bash"] },
        { registry: createRegistry([capable]) },
      ),
    );
    expect(ofType(events, "error")[0]?.message).toContain("read-only");
  });
});
