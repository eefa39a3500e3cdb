/**
 * Devin for Terminal against a fake `devin` (test/bin/fake-devin.ts): it is not on npm, so its
 * detection and failure paths are proven here, with the argv and the session mode od sends.
 * Detection: found (version, the `acp` subcommand, the login), missing, too old or without `acp`
 * (a clear problem, and a refused run that names `devin update`). Failures: no login (the ACP
 * session's "Authentication required" becomes AGENT_AUTH_REQUIRED with the login hint), and a
 * cancel that leaves no process behind.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadRegistry } from "../../src/builtins.ts";
import { detectOne } from "../../src/core/agents/detect.ts";
import { createRegistry } from "../../src/core/agents/registry.ts";
import { OdError } from "../../src/core/contract/errors.ts";
import { alive, collect, finished, installFake, ofType, ROOT, tmpdir } from "../helpers.ts";
import { runAgent } from "../support/run.ts";

const FAKE_DEVIN = join(ROOT, "test/bin/fake-devin.ts");
const entry = (await loadRegistry([])).get("devin")!;
const devin = entry.adapter;
const registry = createRegistry([entry]);
const fast = { intMs: 200, termMs: 200, killMs: 300 };
const ctx = { prompt: "x", cwd: "/work/project", bin: "/usr/bin/devin" };

function recorded(path: string): any[] {
  return readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .flatMap((l) => (l.startsWith("{") ? [JSON.parse(l)] : []));
}

describe("devin: detection", () => {
  test("found: its version, the acp subcommand, and the login `devin auth status` reports", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "devin", { version: "2026.5.1-1" }, FAKE_DEVIN);
    const d = await detectOne(devin, fake.env);
    expect(d).toMatchObject({ status: "ready", version: "2026.5.1-1", auth: "ok", problems: [] });
    expect(d.flags).toEqual(["acp"]);
  });

  test("logged out: `devin auth status` says so, and the hint is the login command", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "devin", { loggedIn: false }, FAKE_DEVIN);
    const d = await detectOne(devin, fake.env);
    expect(d.status).toBe("logged-out");
    expect(d.problems[0]).toMatchObject({ code: "AGENT_AUTH_REQUIRED", hint: expect.stringContaining("devin auth login") });
  });

  test("missing: not on PATH", async () => {
    await using tmp = tmpdir();
    const d = await detectOne(devin, { PATH: join(tmp.path, "bin"), HOME: tmp.path });
    expect(d.status).toBe("missing");
    expect(d.problems[0]?.code).toBe("AGENT_NOT_FOUND");
  });

  test("too old, without the acp subcommand: outdated, with the update command", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "devin", { version: "2025.11.4-2", acp: false }, FAKE_DEVIN);
    const d = await detectOne(devin, fake.env);
    expect(d.status).toBe("outdated");
    expect(d.flags).toEqual([]);
    expect(d.problems[0]).toMatchObject({
      message: expect.stringContaining("older than 2026.5.1"),
      hint: expect.stringContaining("devin update"),
    });
  });

  test("a build without `acp` is refused before it starts, naming `devin update`", () => {
    let thrown: unknown;
    try {
      devin.invoke({ ...ctx, mode: "edit", flags: new Set() });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(OdError);
    expect(thrown).toMatchObject({ code: "AGENT_NOT_FOUND", hint: expect.stringContaining("`devin update`") });
    expect(devin.invoke({ ...ctx, mode: "edit", flags: new Set(["acp"]) }).argv).toEqual(["--respect-workspace-trust", "false", "acp"]);
  });

  test("dangerous permission mode only in full; version parse", () => {
    expect(devin.invoke({ ...ctx, mode: "read-only" }).argv).not.toContain("dangerous");
    expect(devin.invoke({ ...ctx, mode: "edit" }).argv).not.toContain("dangerous");
    expect(devin.invoke({ ...ctx, mode: "full" }).argv).toEqual([
      "--permission-mode",
      "dangerous",
      "--respect-workspace-trust",
      "false",
      "acp",
    ]);
    expect(devin.version.parse?.("devin 2026.5.1-1\n")).toBe("2026.5.1-1");
  });
});

describe("devin: runs against the fake", () => {
  test("edit mode sets the session's accept-edits mode before the prompt", async () => {
    await using tmp = tmpdir();
    const turn = [{ update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } } }];
    const fake = installFake(tmp.path, "devin", { modes: ["accept-edits", "ask", "bypass"], turn }, FAKE_DEVIN);
    const events = await collect(runAgent({ agent: "devin", prompt: "hello", cwd: tmp.path, mode: "edit" }, { registry, env: fake.env }));
    expect(finished(events).status).toBe("succeeded");
    const sent = recorded(join(tmp.path, "devin.record.json"));
    expect(sent.find((m) => m.method === "session/set_config_option")?.params).toMatchObject({ configId: "mode", value: "accept-edits" });
    expect(sent.find((m) => m.method === "session/prompt")?.params.prompt[0].text).toBe("hello");
  });

  test("no login: session/new's auth error ends the run AGENT_AUTH_REQUIRED with the login hint", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "devin", { authError: "Authentication required" }, FAKE_DEVIN);
    const events = await collect(runAgent({ agent: "devin", prompt: "hello", cwd: tmp.path }, { registry, env: fake.env }));
    expect(ofType(events, "error")[0]).toMatchObject({ code: "AGENT_AUTH_REQUIRED", hint: expect.stringContaining("devin auth login") });
    expect(finished(events).status).toBe("failed");
  });

  test("cancel: the run ends cancelled and the agent's process is gone", async () => {
    await using tmp = tmpdir();
    const turn = [{ update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "working" } } }, { hang: true }];
    const fake = installFake(tmp.path, "devin", { modes: ["accept-edits"], turn }, FAKE_DEVIN);
    const controller = new AbortController();
    const events = [];
    for await (const e of runAgent(
      { agent: "devin", prompt: "x", cwd: tmp.path },
      { registry, env: fake.env, signal: controller.signal, ladder: fast, abortGraceMs: 300 },
    )) {
      events.push(e);
      if (e.type === "text.delta") controller.abort();
    }
    expect(finished(events).status).toBe("cancelled");
    expect(fake.pids().length).toBe(1);
    for (const pid of fake.pids()) expect(alive(pid)).toBe(false);
  });
});
