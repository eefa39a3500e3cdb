import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { createRegistry } from "../../../src/core/agents/registry.ts";
import { validateAdapter } from "../../../src/core/contract/adapter.ts";
import type { Mode } from "../../../src/core/contract/events.ts";
import { acp } from "../../../src/core/protocols/acp.ts";
import { type Broker, policyDecision } from "../../../src/core/run/permissions.ts";
import { collect, FAKE_ACP, finished, installFake, ofType, tmpdir } from "../../helpers.ts";
import { fakeAcpAdapter } from "../../support/fake-adapter.ts";
import { type RunOptions, runAgent } from "../../support/run.ts";

const registry = createRegistry([fakeAcpAdapter]);
const fast = { intMs: 200, termMs: 200, killMs: 300 };

// What the fake agent recorded: loose JSON-RPC frames.
type Received = any;

async function run(
  script: Record<string, unknown>,
  request: { mode?: Mode; model?: string; resume?: string; prompt?: string } = {},
  opts: Partial<RunOptions> = {},
) {
  await using tmp = tmpdir();
  const fake = installFake(tmp.path, "fake-acp", script, FAKE_ACP);
  const events = await collect(
    runAgent(
      {
        agent: "fake-acp",
        prompt: request.prompt ?? "hello",
        cwd: tmp.path,
        mode: request.mode ?? "edit",
        model: request.model,
        resume: request.resume,
      },
      { registry, env: fake.env, ladder: fast, abortGraceMs: 300, doneGraceMs: 500, ...opts },
    ),
  );
  let received: Received[] = [];
  try {
    received = readFileSync(join(tmp.path, "fake-acp.record.json"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
  } catch {}
  return { events, received, cwd: tmp.path };
}
const methods = (r: Received[]) => r.filter((m) => m.method).map((m) => m.method);
const answers = (r: Received[]) => r.filter((m) => m.answer).map((m) => m.answer.result ?? m.answer.error);

const chunk = (text: string) => ({ update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } });
const writeCall = (path: string) => ({
  sessionUpdate: "tool_call",
  toolCallId: "tc-1",
  title: "Write hello.txt",
  kind: "edit",
  status: "pending",
  rawInput: { path },
  locations: [{ path }],
});
const permission = (path: string) => ({
  permission: {
    toolCall: { toolCallId: "tc-1", title: "Write hello.txt", kind: "edit", locations: [{ path }] },
    options: [
      { optionId: "yes", name: "Allow", kind: "allow_once" },
      { optionId: "always", name: "Always", kind: "allow_always" },
      { optionId: "no", name: "Reject", kind: "reject_once" },
    ],
  },
});

describe("ACP driver", () => {
  test("handshake, streamed chunks, thoughts, usage; the prompt travels in session/prompt", async () => {
    const { events, received, cwd } = await run({
      turn: [
        { update: { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "hmm" } } },
        chunk("Hello "),
        chunk("there"),
        { update: { sessionUpdate: "available_commands_update", availableCommands: [] } },
      ],
      usage: { inputTokens: 10, outputTokens: 3 },
      loadSession: true,
    });
    expect(methods(received)).toEqual(["initialize", "session/new", "session/prompt"]);
    expect(received[0].params).toMatchObject({
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    });
    expect(received[1].params).toEqual({ cwd, mcpServers: [] });
    expect(received[2].params).toEqual({ sessionId: "sess-1", prompt: [{ type: "text", text: "hello" }] });
    expect(
      ofType(events, "text.delta")
        .map((e) => e.text)
        .join(""),
    ).toBe("Hello there");
    expect(ofType(events, "thinking.delta")[0]?.text).toBe("hmm");
    expect(ofType(events, "usage")[0]).toMatchObject({ inputTokens: 10, outputTokens: 3 });
    expect(finished(events)).toMatchObject({ status: "succeeded", sessionId: "sess-1", resumable: true });
  });

  test("an agent that cannot load sessions: the run is not resumable (resume would be refused)", async () => {
    const { events } = await run({ turn: [chunk("hi")], loadSession: false });
    expect(ofType(events, "session")[0]).toMatchObject({ sessionId: "sess-1", resumable: false });
    expect(finished(events)).toMatchObject({ status: "succeeded", sessionId: "sess-1", resumable: false });
  });

  test("an agent that lingers after its turn is done is stopped by od, and the run still succeeded", async () => {
    const { events } = await run({ turn: [chunk("all done")], lingerMs: 10_000 }, {}, { doneGraceMs: 100 });
    expect(ofType(events, "error")).toEqual([]);
    expect(finished(events)).toMatchObject({ status: "succeeded", signal: "SIGINT" });
  });

  test("edit mode: a write inside the cwd is allowed by policy; the tool call and result pair up", async () => {
    await using tmp = tmpdir();
    const inside = join(tmp.path, "hello.txt");
    const script = {
      turn: [
        { update: writeCall(inside) },
        permission(inside),
        {
          update: {
            sessionUpdate: "tool_call_update",
            toolCallId: "tc-1",
            status: "completed",
            content: [{ type: "content", content: { type: "text", text: "wrote it" } }],
          },
        },
        chunk("done"),
      ],
    };
    const fake = installFake(tmp.path, "fake-acp", script, FAKE_ACP);
    const events = await collect(
      runAgent({ agent: "fake-acp", prompt: "write", cwd: tmp.path }, { registry, env: fake.env, ladder: fast }),
    );
    expect(ofType(events, "permission.request")[0]).toMatchObject({ tool: "Write hello.txt", options: ["Allow", "Always", "Reject"] });
    expect(ofType(events, "permission.decision")[0]).toMatchObject({ decision: "allow", by: "policy" });
    const received = readFileSync(join(tmp.path, "fake-acp.record.json"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(answers(received)).toEqual([{ outcome: { outcome: "selected", optionId: "yes" } }]);
    expect(ofType(events, "tool.call")[0]).toMatchObject({ id: "tc-1", name: "Write hello.txt", input: { path: inside } });
    expect(ofType(events, "tool.result")[0]).toMatchObject({ id: "tc-1", output: "wrote it", isError: false });
  });

  test("read-only denies the write; edit denies a path outside the cwd", async () => {
    const ro = await run({ turn: [permission("/tmp/x/hello.txt")] }, { mode: "read-only" });
    expect(ofType(ro.events, "permission.decision")[0]).toMatchObject({ decision: "deny", reason: expect.stringContaining("read-only") });
    expect(answers(ro.received)).toEqual([{ outcome: { outcome: "selected", optionId: "no" } }]);
    const out = await run({ turn: [permission("/etc/passwd")] });
    expect(ofType(out.events, "permission.decision")[0]).toMatchObject({ decision: "deny", reason: expect.stringContaining("outside") });
  });

  test("an attached client decides within the mode; one that never answers is a denial by timeout", async () => {
    const asked: string[] = [];
    const yes: Broker = async (ask) => (asked.push(ask.tool), "allow");
    const byUser = await run({ turn: [permission("/etc/hosts")] }, { mode: "full" }, { broker: yes });
    expect(ofType(byUser.events, "permission.decision")[0]).toMatchObject({ decision: "allow", by: "user" });
    // The mode is a ceiling: what read-only denies, no client's "allow" can widen, and the client is not asked.
    const ceiling = await run({ turn: [permission("/etc/hosts")] }, { mode: "read-only" }, { broker: yes });
    expect(ofType(ceiling.events, "permission.decision")[0]).toMatchObject({ decision: "deny", by: "policy" });
    expect(answers(ceiling.received)).toEqual([{ outcome: { outcome: "selected", optionId: "no" } }]);
    expect(asked).toEqual(["Write hello.txt"]);
    const silent: Broker = () => new Promise(() => {});
    const timedOut = await run({ turn: [permission("/etc/hosts")] }, { mode: "full" }, { broker: silent, brokerTimeoutMs: 100 });
    expect(ofType(timedOut.events, "permission.decision")[0]).toMatchObject({ decision: "deny", by: "timeout" });
    expect(answers(timedOut.received)).toEqual([{ outcome: { outcome: "selected", optionId: "no" } }]);
  });

  test("cancel while a question waits for its answer: denied at once, and the run ends (not after the question's timeout)", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-acp", { turn: [permission("/etc/hosts")] }, FAKE_ACP);
    const controller = new AbortController();
    const silent: Broker = () => new Promise(() => {});
    const events = [];
    for await (const e of runAgent(
      { agent: "fake-acp", prompt: "x", cwd: tmp.path, mode: "full" },
      { registry, env: fake.env, signal: controller.signal, ladder: fast, broker: silent, brokerTimeoutMs: 600_000 },
    )) {
      events.push(e);
      if (e.type === "permission.request") setTimeout(() => controller.abort(), 50); // once the question is out
    }
    expect(ofType(events, "permission.decision")[0]).toMatchObject({ decision: "deny", by: "policy", reason: "the run is stopping" });
    expect(finished(events).status).toBe("cancelled");
  });

  test("models: an unknown one is refused with the valid list; a known one is set before the prompt", async () => {
    const bad = await run({ models: ["m-small", "m-big"], turn: [chunk("x")] }, { model: "m-huge" });
    // Refused in the plan stage (the catalog fetched from session/new) or by the driver: the valid list either way.
    expect(ofType(bad.events, "error")[0]).toMatchObject({
      code: "MODEL_NOT_AVAILABLE",
      hint: expect.stringMatching(/^Valid models: m-small, m-big\./),
    });
    expect(methods(bad.received)).not.toContain("session/prompt");
    const good = await run({ models: ["m-small", "m-big"], turn: [chunk("x")] }, { model: "m-big" });
    // The plan stage's catalog fetch (initialize, session/new, no prompt), then the run's own session.
    const session = ["initialize", "session/new", "session/set_model", "session/prompt"];
    expect(methods(good.received)).toEqual(["initialize", "session/new", ...session]);
    const config = await run({ configModels: ["a", "b"], turn: [chunk("x")] }, { model: "b" });
    expect(config.received.find((m) => m.method === "session/set_config_option").params).toEqual({
      sessionId: "sess-1",
      configId: "model",
      value: "b",
    });
  });

  test("resume loads the session and does not replay its history as new output", async () => {
    const { events, received } = await run(
      { loadSession: true, history: [chunk("OLD ANSWER").update], turn: [chunk("new answer")] },
      { resume: "sess-7" },
    );
    expect(received.find((m) => m.method === "session/load").params).toMatchObject({ sessionId: "sess-7" });
    expect(ofType(events, "text.delta").map((e) => e.text)).toEqual(["new answer"]);
    expect(finished(events).sessionId).toBe("sess-7");
    const cannot = await run({ turn: [chunk("x")] }, { resume: "sess-7" });
    expect(ofType(cannot.events, "error")[0]?.code).toBe("INVALID_REQUEST");
  });

  test("failures: auth at session/new, an error for the prompt, a crash mid-turn with a tool open", async () => {
    const auth = await run({ authError: "Authentication required", turn: [] });
    expect(ofType(auth.events, "error")[0]).toMatchObject({ code: "AGENT_AUTH_REQUIRED", hint: "Log in: fake-acp login" });
    const prompt = await run({ turn: [{ promptError: { code: -32603, message: "Internal error: model overloaded" } }] });
    expect(ofType(prompt.events, "error")[0]?.message).toContain("model overloaded");
    const crash = await run({ turn: [{ update: writeCall("/w/x") }, { crash: 3 }] });
    expect(ofType(crash.events, "tool.result")[0]).toMatchObject({ id: "tc-1", isError: true });
    expect(finished(crash.events)).toMatchObject({ status: "failed", exitCode: 3 });
  });

  test("cancel sends session/cancel, and the process group is gone", async () => {
    await using tmp = tmpdir();
    // Busy for up to 5 s, checking for a cancel every 50 ms: it answers the cancel and leaves, well within the grace.
    const fake = installFake(tmp.path, "fake-acp", { turn: [chunk("working"), ...Array(100).fill({ sleep: 50 })] }, FAKE_ACP);
    const controller = new AbortController();
    const events = [];
    for await (const e of runAgent(
      { agent: "fake-acp", prompt: "x", cwd: tmp.path },
      { registry, env: fake.env, signal: controller.signal, ladder: fast, abortGraceMs: 10_000 },
    )) {
      events.push(e);
      if (e.type === "text.delta") controller.abort();
    }
    expect(finished(events)).toMatchObject({ status: "cancelled", exitCode: 0, signal: null }); // it left by itself
    const received = readFileSync(join(tmp.path, "fake-acp.record.json"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(methods(received)).toContain("session/cancel");
  });

  test("a slow start is fine; requests od does not offer are refused; silence trips the watchdog", async () => {
    const slow = await run({ startDelayMs: 300, turn: [{ request: "fs/read_text_file" }, chunk("ok")] });
    expect(finished(slow.events).status).toBe("succeeded");
    expect(answers(slow.received)).toEqual([expect.objectContaining({ code: -32601 })]);
    const stuck = await run({ turn: [{ hang: true }] }, {}, { idleTimeoutMs: 300 });
    expect(ofType(stuck.events, "error")[0]).toMatchObject({ code: "TIMEOUT", message: expect.stringContaining("sent nothing") });
  });
});

describe("ACP driver, record by record", () => {
  test("an answer to no request of ours (an unknown, odd or repeated id) changes nothing", () => {
    const { state, send } = acp.start({ agent: { name: "Fake" }, prompt: "hi", cwd: "/w", mode: "edit" });
    expect(send).toEqual([expect.objectContaining({ id: 1, method: "initialize" })]);
    for (const id of [2, 0, -1, 1.5, 1e9, "1", null])
      expect(acp.receive({ jsonrpc: "2.0", id, result: {} }, state, "")).toEqual({ events: [] });
    expect(acp.receive({ jsonrpc: "2.0", id: 1, result: {} }, state, "").send).toEqual([
      expect.objectContaining({ id: 2, method: "session/new" }),
    ]);
    expect(acp.receive({ jsonrpc: "2.0", id: 1, result: {} }, state, "")).toEqual({ events: [] });
    expect(acp.receive({ jsonrpc: "2.0", id: 2, result: { sessionId: "s1" } }, state, "")).toMatchObject({
      events: [{ type: "session", sessionId: "s1" }],
      send: [{ id: 3, method: "session/prompt" }],
    });
  });
});

describe("permission policy", () => {
  test("the table", async () => {
    await using tmp = tmpdir();
    symlinkSync("/etc", join(tmp.path, "etc-link"));
    // Links to what does not exist yet: writing through one creates its target, wherever it points.
    mkdirSync(join(tmp.path, ".git/hooks"), { recursive: true });
    symlinkSync(join(tmp.path, ".git/hooks/post-checkout"), join(tmp.path, "build.sh"));
    symlinkSync(join(tmp.path, "../outside-not-yet.txt"), join(tmp.path, "notes.md"));
    symlinkSync("/nonexistent-dir", join(tmp.path, "gone"));
    symlinkSync("loop-b", join(tmp.path, "loop-a"));
    symlinkSync("loop-a", join(tmp.path, "loop-b"));
    const cases: Array<[Mode, "read" | "edit" | "execute" | "other", string[] | undefined, "allow" | "deny"]> = [
      ["read-only", "read", undefined, "allow"],
      ["read-only", "edit", ["a.txt"], "deny"],
      ["read-only", "execute", undefined, "deny"],
      ["edit", "edit", ["a.txt", join(tmp.path, "sub/b.txt")], "allow"],
      ["edit", "edit", ["../escape.txt"], "deny"],
      ["edit", "edit", ["etc-link/passwd"], "deny"], // a symlink inside cwd that points out
      ["edit", "edit", [".git/config"], "deny"], // the repository's metadata: its config names commands git runs
      ["edit", "edit", ["src/.git/hooks/post-checkout"], "deny"],
      ["edit", "edit", [".github/workflows/ci.yml", ".gitignore"], "allow"],
      ["edit", "edit", ["build.sh"], "deny"], // a dangling link into .git/hooks
      ["edit", "edit", ["notes.md"], "deny"], // a dangling link out of cwd
      ["edit", "edit", ["gone/file.txt"], "deny"], // beneath a dangling link
      ["edit", "edit", ["loop-a"], "deny"], // a loop of links resolves to nowhere
      ["edit", "edit", ["new/dir/file.txt"], "allow"], // not there yet, and no link on the way
      ["full", "edit", [".git/config"], "allow"],
      ["edit", "edit", undefined, "deny"],
      ["edit", "execute", undefined, "deny"],
      ["edit", "other", undefined, "deny"],
      ["full", "execute", undefined, "allow"],
    ];
    for (const [mode, kind, paths, want] of cases)
      expect({ mode, kind, paths, got: policyDecision({ kind, paths }, mode, tmp.path).decision }).toEqual({
        mode,
        kind,
        paths,
        got: want,
      });
  });
});

describe("an agent's own session options (sessionMeta)", () => {
  test("go as session/new's _meta for the modes that name them, and not otherwise", async () => {
    const meta = { claudeCode: { options: { strictMcpConfig: true } } };
    const withMeta = validateAdapter({
      ...fakeAcpAdapter,
      protocol: { kind: "driver", driver: "acp", options: { sessionMeta: { "read-only": meta, edit: meta } } },
    });
    for (const [mode, expected] of [
      ["read-only", meta],
      ["edit", meta],
      ["full", undefined],
    ] as const) {
      const { received } = await run({ turn: [chunk("ok")] }, { mode }, { registry: createRegistry([withMeta]) });
      expect({ mode, meta: received[1].params._meta }).toEqual({ mode, meta: expected });
    }
  });
});

describe("ACP read-only through a session mode", () => {
  const readOnlyByMode = validateAdapter({
    ...fakeAcpAdapter,
    protocol: { kind: "driver", driver: "acp", options: { modes: { "read-only": { configId: "mode", value: "plan" } } } },
  });
  const registryRO = createRegistry([readOnlyByMode]);

  test("the mode is set before the prompt, only in read-only runs", async () => {
    for (const [mode, expected] of [
      ["read-only", ["initialize", "session/new", "session/set_config_option", "session/prompt"]],
      ["edit", ["initialize", "session/new", "session/prompt"]],
    ] as const) {
      await using tmp = tmpdir();
      const fake = installFake(tmp.path, "fake-acp", { modes: ["default", "plan"], turn: [chunk("ok")] }, FAKE_ACP);
      const events = await collect(
        runAgent({ agent: "fake-acp", prompt: "x", cwd: tmp.path, mode }, { registry: registryRO, env: fake.env }),
      );
      const received = readFileSync(join(tmp.path, "fake-acp.record.json"), "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(methods(received)).toEqual([...expected]);
      if (mode === "read-only")
        expect(received.find((m: Received) => m.method === "session/set_config_option").params).toMatchObject({
          configId: "mode",
          value: "plan",
        });
      expect(finished(events).status).toBe("succeeded");
    }
  });

  test("an agent that does not offer the mode is refused: no prompt is sent", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-acp", { modes: ["default"], turn: [chunk("never")] }, FAKE_ACP);
    const events = await collect(
      runAgent({ agent: "fake-acp", prompt: "x", cwd: tmp.path, mode: "read-only" }, { registry: registryRO, env: fake.env }),
    );
    expect(ofType(events, "error")[0]).toMatchObject({
      code: "INVALID_REQUEST",
      message: expect.stringContaining("read-only mode (mode=plan)"),
    });
    const received = readFileSync(join(tmp.path, "fake-acp.record.json"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(methods(received)).not.toContain("session/prompt");
  });
});

describe("ACP: the agent is put in the session mode of od's mode", () => {
  const byMode = validateAdapter({
    ...fakeAcpAdapter,
    protocol: {
      kind: "driver",
      driver: "acp",
      options: { modes: { "read-only": { configId: "mode", value: "plan" }, edit: { configId: "mode", value: "default" } } },
    },
  });
  const registryModes = createRegistry([byMode]);

  test("edit sets the agent's asking mode before the prompt; full sets none", async () => {
    for (const [mode, expected] of [
      ["edit", "default"],
      ["full", undefined],
    ] as const) {
      await using tmp = tmpdir();
      const fake = installFake(tmp.path, "fake-acp", { modes: ["auto", "default", "plan"], turn: [chunk("ok")] }, FAKE_ACP);
      const events = await collect(
        runAgent({ agent: "fake-acp", prompt: "x", cwd: tmp.path, mode }, { registry: registryModes, env: fake.env }),
      );
      const received: Received[] = readFileSync(join(tmp.path, "fake-acp.record.json"), "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      const set = received.find((m) => m.method === "session/set_config_option");
      expect(set?.params.value).toBe(expected);
      if (expected)
        expect(methods(received).indexOf("session/set_config_option")).toBeLessThan(methods(received).indexOf("session/prompt"));
      expect(finished(events).status).toBe("succeeded");
    }
  });

  test("an agent that does not offer the edit mode is refused, not run with more authority", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-acp", { modes: ["auto", "plan"], turn: [chunk("never")] }, FAKE_ACP);
    const events = await collect(runAgent({ agent: "fake-acp", prompt: "x", cwd: tmp.path }, { registry: registryModes, env: fake.env }));
    expect(ofType(events, "error")[0]).toMatchObject({
      code: "INVALID_REQUEST",
      message: expect.stringContaining("edit mode (mode=default)"),
    });
    expect(ofType(events, "text.delta")).toEqual([]);
  });
});

describe("ACP: a denied call is a tool call with a denied result", () => {
  const shell = {
    permission: {
      toolCall: { toolCallId: "sh-1", title: "rm -rf build", kind: "execute", rawInput: { command: "rm -rf build" } },
      options: [
        { optionId: "yes", name: "Allow", kind: "allow_once" },
        { optionId: "no", name: "Reject", kind: "reject_once" },
      ],
    },
  };

  test("asked before any tool_call (Gemini, Qwen): tool.call and a denied tool.result, in run.result too", async () => {
    const { events } = await run({ turn: [shell, chunk("I was not allowed.")] }, { mode: "edit" });
    const call = ofType(events, "tool.call").find((c) => c.id === "sh-1");
    expect(call).toMatchObject({ name: "rm -rf build", input: { command: "rm -rf build" } });
    const results = ofType(events, "tool.result").filter((r) => r.id === "sh-1");
    expect(results).toEqual([expect.objectContaining({ isError: true, output: "Denied by od: edit mode denies running commands" })]);
    expect(ofType(events, "run.result")[0]?.toolCalls).toEqual([{ id: "sh-1", name: "rm -rf build", isError: true }]);
  });

  test("the agent's own failed update for the denied call adds no second result", async () => {
    const failed = { update: { sessionUpdate: "tool_call_update", toolCallId: "sh-1", status: "failed", rawOutput: "User refused" } };
    const { events } = await run({ turn: [shell, failed, chunk("ok")] }, { mode: "edit" });
    expect(ofType(events, "tool.call").filter((c) => c.id === "sh-1")).toHaveLength(1);
    expect(ofType(events, "tool.result").filter((r) => r.id === "sh-1")).toHaveLength(1);
  });
});

describe("ACP: the ask names the call it is about", () => {
  const options = [
    { optionId: "yes", name: "Allow", kind: "allow_once" },
    { optionId: "no", name: "Reject", kind: "reject_once" },
  ];

  test("the agent's call id and its input, whole (from the call's earlier tool_call when the request has none)", async () => {
    const asks: Array<{ toolCallId?: string; input?: unknown }> = [];
    const broker: Broker = async (ask) => (asks.push({ toolCallId: ask.toolCallId, input: ask.input }), "allow");
    const content = "x".repeat(2000);
    const shown = { ...writeCall("/tmp/x/hello.txt"), rawInput: { path: "/tmp/x/hello.txt", content } };
    const ask = { permission: { toolCall: { toolCallId: "tc-1", title: "Write hello.txt", rawInput: {} }, options } };
    await run({ turn: [{ update: shown }, ask] }, { mode: "full" }, { broker });
    expect(asks).toEqual([{ toolCallId: "tc-1", input: { path: "/tmp/x/hello.txt", content } }]);
  });

  test("a request that names no call: the ask's id is the one its denied tool.call shows", async () => {
    const asks: string[] = [];
    const broker: Broker = async (ask) => (asks.push(ask.toolCallId ?? "(none)"), "deny");
    const { events } = await run(
      { turn: [{ permission: { toolCall: { title: "rm -rf build", kind: "execute" }, options } }] },
      { mode: "full" },
      { broker },
    );
    expect(asks).toEqual([expect.stringMatching(/^permission-/)]);
    expect(ofType(events, "tool.call").map((c) => c.id)).toEqual(asks);
  });
});

describe("ACP: a permission request that names no path", () => {
  const bare = {
    permission: {
      toolCall: { toolCallId: "tc-1", title: "Create hello.txt" },
      options: [
        { optionId: "yes", name: "Allow", kind: "allow_once" },
        { optionId: "no", name: "Reject", kind: "reject_once" },
      ],
    },
  };

  test("takes kind and path from the same call's earlier tool_call (Droid): inside the cwd, edit mode allows it", async () => {
    await using tmp = tmpdir();
    const inside = join(tmp.path, "hello.txt");
    const fake = installFake(tmp.path, "fake-acp", { turn: [{ update: writeCall(inside) }, bare, chunk("ok")] }, FAKE_ACP);
    const events = await collect(runAgent({ agent: "fake-acp", prompt: "x", cwd: tmp.path }, { registry, env: fake.env }));
    expect(ofType(events, "permission.decision")[0]).toMatchObject({ decision: "allow", by: "policy" });
  });

  test("a request naming a path inside while the call itself named one outside: every path is checked, denied", async () => {
    await using tmp = tmpdir();
    const inside = join(tmp.path, "hello.txt");
    const named = { permission: { ...bare.permission, toolCall: { ...bare.permission.toolCall, locations: [{ path: inside }] } } };
    const fake = installFake(tmp.path, "fake-acp", { turn: [{ update: writeCall("/etc/od-outside.txt") }, named, chunk("ok")] }, FAKE_ACP);
    const events = await collect(runAgent({ agent: "fake-acp", prompt: "x", cwd: tmp.path }, { registry, env: fake.env }));
    const decision = ofType(events, "permission.decision")[0];
    expect(decision).toMatchObject({ decision: "deny", by: "policy" });
    expect(decision?.reason).toContain("/etc/od-outside.txt");
  });

  test("with nothing known about the call, it stays an edit that names no path: denied", async () => {
    const { events } = await run({ turn: [bare, chunk("ok")] });
    expect(ofType(events, "permission.decision")[0]).toMatchObject({ decision: "deny", by: "policy" });
  });
});
