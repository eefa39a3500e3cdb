/**
 * Letta Code against a fake `letta` (test/bin/fake-agent.ts): `@letta-ai/letta-code` cannot be
 * installed here (dependencies the registry does not serve), so its detection and failure paths
 * are proven with fakes shaped by its source (src/index.ts, src/headless.ts). Detection: found
 * (version, LETTA_API_KEY), missing. Runs: the prompt on stdin with the permission mode per od
 * mode (never the default `unrestricted` below full), resume by conversation id, the missing key
 * → AGENT_AUTH_REQUIRED with the login hint, cancel.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { loadRegistry } from "../../src/builtins.ts";
import { detectOne } from "../../src/core/agents/detect.ts";
import { createRegistry } from "../../src/core/agents/registry.ts";
import { alive, collect, FIXTURES, finished, installFake, ofType, tmpdir } from "../helpers.ts";
import { runAgent } from "../support/run.ts";

const entry = (await loadRegistry([])).get("letta")!;
const letta = entry.adapter;
const registry = createRegistry([entry]);
const ctx = { prompt: "-x", cwd: "/work/project", bin: "/usr/bin/letta" };
const SHELL = "Bash,BashOutput,KillBash,shell_command,ShellCommand,run_shell_command,RunShellCommand,exec_command";
// What src/index.ts writes when headless runs against Letta Cloud without a key (exit 1).
const NO_KEY = [
  { stderr: "Missing LETTA_API_KEY\n" },
  { stderr: "Headless mode requires an API key set via the LETTA_API_KEY environment variable.\n" },
  { stderr: "Get an API key at https://app.letta.com/api-keys\n" },
  { exit: 1 },
];

describe("letta: detection", () => {
  test("found: the version from `letta --version`, logged in by LETTA_API_KEY", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "letta", [{ raw: "0.30.29 (Letta Code)\n" }]);
    const d = await detectOne(letta, { ...fake.env, LETTA_API_KEY: "sk-let-test" });
    expect(d).toMatchObject({ status: "ready", version: "0.30.29", auth: "ok" });
  });

  test("missing: not on PATH", async () => {
    await using tmp = tmpdir();
    const d = await detectOne(letta, { PATH: join(tmp.path, "bin"), HOME: tmp.path });
    expect(d.status).toBe("missing");
    expect(d.problems[0]?.code).toBe("AGENT_NOT_FOUND");
  });
});

describe("letta: modes, resume and runs against the fake", () => {
  test("a permission mode in every od mode; shell tools disallowed below full; --yolo only in full", () => {
    const head = ["-p", "--output-format", "stream-json"];
    expect(letta.invoke({ ...ctx, mode: "read-only" })).toEqual({
      argv: [...head, "--permission-mode", "standard", "--disallowedTools", SHELL],
      stdin: "-x",
    });
    expect(letta.invoke({ ...ctx, mode: "edit" }).argv).toEqual([...head, "--permission-mode", "acceptEdits", "--disallowedTools", SHELL]);
    expect(letta.invoke({ ...ctx, mode: "full", model: "sonnet", resume: "conv-7a8b9c" }).argv).toEqual([
      ...head,
      "--model",
      "sonnet",
      "--conversation",
      "conv-7a8b9c",
      "--yolo",
    ]);
  });

  test("edit: the prompt goes on stdin; the answer, the tool call and the conversation id come back", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "letta", [{ read: "all" }, { replay: join(FIXTURES, "letta/tool.jsonl") }]);
    const events = await collect(
      runAgent({ agent: "letta", prompt: "Write it", cwd: tmp.path, mode: "edit" }, { registry, env: fake.env }),
    );
    expect(finished(events).status).toBe("succeeded");
    expect(fake.recorded()).toMatchObject({ argv: expect.arrayContaining(["acceptEdits"]), stdin: ["Write it"] });
    expect(ofType(events, "session")[0]?.sessionId).toBe("conv-7a8b9c");
    expect(ofType(events, "tool.call")[0]?.name).toBe("Write");
    expect(ofType(events, "text.delta").map((e) => e.text)).toContain("OD_LIVE_FILE_WRITTEN");
  });

  test("no LETTA_API_KEY: AGENT_AUTH_REQUIRED with the login hint", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "letta", NO_KEY);
    const events = await collect(runAgent({ agent: "letta", prompt: "x", cwd: tmp.path }, { registry, env: fake.env }));
    expect(ofType(events, "error")[0]).toMatchObject({ code: "AGENT_AUTH_REQUIRED", hint: expect.stringContaining("LETTA_API_KEY") });
    expect(finished(events).status).toBe("failed");
  });

  test("cancel: the run ends cancelled and the agent's process is gone", async () => {
    await using tmp = tmpdir();
    const msg = { type: "message", message_type: "assistant_message", id: "m1", content: "working", session_id: "agent-1" };
    const fake = installFake(tmp.path, "letta", [{ read: "all" }, { stdout: msg }, { hang: true }]);
    const controller = new AbortController();
    const events = [];
    const opts = { registry, env: fake.env, signal: controller.signal, ladder: { intMs: 200, termMs: 200, killMs: 300 } };
    for await (const e of runAgent({ agent: "letta", prompt: "x", cwd: tmp.path }, opts)) {
      events.push(e);
      if (e.type === "text.delta") controller.abort();
    }
    expect(finished(events).status).toBe("cancelled");
    const { pid } = fake.recorded() as { pid?: number };
    for (const p of [...fake.pids(), ...(pid ? [pid] : [])]) expect(alive(p)).toBe(false);
  });
});
