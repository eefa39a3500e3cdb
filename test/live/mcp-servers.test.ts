// MCP servers handed to an agent, in the live lane (OD_LIVE=1 bun test test/live/mcp-servers.test.ts):
// `dist/od run --agent claude --mcp-config <file>` gives real Claude Code test/bin/mcp-echo.ts, and
// the loopback model stub scripts a call of its echo tool. Allowed by --allowed-tools, the call
// reaches the server (its log, its ECHO answer with the token the config's ${VAR} gave it) and
// Claude gets the answer back; not allowed, Claude's own approvals refuse it headless and the
// server is never called. The token is in no record od keeps. And `od acp --agent claude` hands the
// servers an ACP client gives in session/new to Claude the same way (the tool allowed in Claude's settings).
// A repository's own hooks and .mcp.json servers run in full mode only.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { acpClient } from "../acp/client.ts";
import { CLIS, installCli } from "./clis.ts";
import { checkRun, fixture } from "./lane.ts";
import type { Scenario } from "./model-stub.ts";
import { DIST_OD, ensureBuilt, ROOT, runOd } from "./od.ts";

const LIVE = process.env.OD_LIVE === "1";
const claude = CLIS.find((c) => c.id === "claude")!;
const TOKEN = "live-mcp-token-7c1";
const CALL: Scenario = {
  kind: "script",
  steps: [{ tools: [{ name: "mcp__echo__echo", args: { text: "hello echo" } }] }, { text: "CLAUDE_HEARD_ECHO" }],
};

/** A fixture for real Claude Code with the echo server in an --mcp-config file; runs od and returns what it saw. */
async function runWithEcho(extra: string[], o: { mode?: string; allowInSettings?: boolean } = {}) {
  const fx = await fixture(claude, await installCli(claude), CALL);
  try {
    if (o.allowInSettings) allowInClaudeSettings(fx.home);
    const log = join(fx.work, "echo.log");
    const echo = {
      command: process.execPath,
      args: [join(ROOT, "test/bin/mcp-echo.ts")],
      env: { MCP_ECHO_LOG: log, MCP_ECHO_TOKEN: `\${ECHO_TOKEN}` },
    };
    const config = join(fx.home, "mcp.json");
    writeFileSync(config, JSON.stringify({ mcpServers: { echo } }));
    const env = { ...fx.env, ECHO_TOKEN: TOKEN };
    const r = await runOd(["--agent", "claude", "--mode", o.mode ?? "edit", "--mcp-config", config, ...extra, "Call the echo tool"], {
      env,
      cwd: fx.work,
      timeoutMs: 100_000,
    });
    const calls = existsSync(log) ? readFileSync(log, "utf8") : "";
    const records = join(fx.env.OD_HOME!, "runs");
    const kept = readdirSync(records).flatMap((id) =>
      readdirSync(join(records, id)).map((f) => readFileSync(join(records, id, f), "utf8")),
    );
    return { r, calls, kept, answered: fx.stub.requests.map((q) => q.answered).filter((a) => a && a !== "404") };
  } finally {
    await fx.dispose();
  }
}

/** The user's own Claude settings allow the echo tool. */
function allowInClaudeSettings(home: string): void {
  mkdirSync(join(home, ".claude"), { recursive: true });
  writeFileSync(join(home, ".claude", "settings.json"), JSON.stringify({ permissions: { allow: ["mcp__echo__echo"] } }));
}

describe.skipIf(!LIVE)("MCP servers given to real Claude Code (OD_LIVE=1)", () => {
  test("allowed: the echo tool is called through --mcp-config, its answer carries the token, and Claude answers after it", async () => {
    await ensureBuilt();
    const { r, calls, kept, answered } = await runWithEcho(["--allowed-tools", "mcp__echo__echo"]);
    checkRun(r);
    const why = r.stderr.slice(-1500);
    expect(r.finished?.status, why).toBe("succeeded");
    expect(calls).toBe("hello echo\n");
    expect(answered).toEqual(["tool:mcp__echo__echo", "text"]);
    const results = r.of("tool.result").map((e) => e.output);
    expect(results.join("\n"), why).toContain(`ECHO:hello echo:${TOKEN}`);
    expect(r.text).toContain("CLAUDE_HEARD_ECHO");
    // The token went to the server through the config file only: in no record od keeps but the tool's own answer.
    for (const k of kept) expect(k.replaceAll(`ECHO:hello echo:${TOKEN}`, "")).not.toContain(TOKEN);
  }, 150_000);

  test("not allowed: Claude's own approvals refuse the MCP tool headless; the server is never called", async () => {
    await ensureBuilt();
    const { r, calls } = await runWithEcho([]);
    checkRun(r);
    expect(calls).toBe("");
    const results = r.of("tool.result");
    expect(results.length).toBeGreaterThan(0);
    expect(
      results.every((e) => e.isError && !e.output.includes("ECHO:")),
      JSON.stringify(results),
    ).toBe(true);
  }, 150_000);

  // Measured with claude 2.1.332: in plan mode (od's read-only flags) with the tool allowed in the
  // user's settings, Claude called it; so a read-only run gives Claude no servers at all.
  test("read-only: even with the tool allowed in Claude's own settings, the server is not given and never called, said", async () => {
    await ensureBuilt();
    const { r, calls } = await runWithEcho([], { mode: "read-only", allowInSettings: true });
    checkRun(r);
    expect(calls).toBe("");
    const said = r.of("status").filter((e) => e.label === "mcp");
    expect(said.map((e) => e.detail)).toEqual([
      expect.stringContaining("a read-only run gives it no MCP servers; these were not given: echo"),
    ]);
    expect(r.of("tool.result").every((e) => !e.output.includes("ECHO:"))).toBe(true);
  }, 150_000);

  // Measured with claude 2.1.332: `-p` skips Claude's trust prompt, so a repository's own settings
  // ran their hooks under plan mode and started the .mcp.json servers they enabled.
  test.each(["claude", "claude-acp"])(
    "%s: a repository's own hooks and MCP servers: none runs in read-only or edit (CLAUDE.md still reaches the model); full runs them",
    async (id) => {
      await ensureBuilt();
      const cli = CLIS.find((c) => c.id === id)!;
      for (const mode of ["read-only", "edit", "full"] as const) {
        const fx = await fixture(cli, await installCli(cli), { kind: "chat", text: "OK_HOSTILE" });
        try {
          const hookMark = join(fx.home, ".claude", "hook-ran"); // a place Claude may write in every mode
          const serverLog = join(fx.home, ".claude", "server-ran");
          mkdirSync(join(fx.work, ".claude"), { recursive: true });
          const hook = { hooks: [{ type: "command", command: `echo ran >> ${hookMark}` }] };
          writeFileSync(
            join(fx.work, ".claude", "settings.json"),
            JSON.stringify({ hooks: { SessionStart: [hook], UserPromptSubmit: [hook] }, enableAllProjectMcpServers: true }),
          );
          // The server says it started, then serves (echo's log has only calls).
          const started = `echo started >> ${serverLog}; exec ${process.execPath} ${join(ROOT, "test/bin/mcp-echo.ts")}`;
          const echo = { command: "/bin/sh", args: ["-c", started] };
          writeFileSync(join(fx.work, ".mcp.json"), JSON.stringify({ mcpServers: { repo: echo } }));
          writeFileSync(join(fx.work, "CLAUDE.md"), "PROJECT_MEMORY_MARKER\n");
          // Claude refuses full mode (bypassPermissions) as root unless told the machine is a sandbox.
          const env = mode === "full" ? { ...fx.env, IS_SANDBOX: "1" } : fx.env;
          const r = await runOd(["--agent", id, "--mode", mode, "Say hi"], { env, cwd: fx.work, timeoutMs: 100_000 });
          checkRun(r);
          expect(r.finished?.status, r.stderr.slice(-1500)).toBe("succeeded");
          const confined = mode !== "full";
          expect({ mode, hook: existsSync(hookMark) }).toEqual({ mode, hook: !confined });
          if (confined) expect({ mode, server: existsSync(serverLog) }).toEqual({ mode, server: false });
          const bodies = fx.stub.requests.map((q) => JSON.stringify(q.body));
          expect(bodies.some((b) => b.includes("PROJECT_MEMORY_MARKER"))).toBe(true);
        } finally {
          await fx.dispose();
        }
      }
    },
    400_000,
  );

  test("od acp: the servers a client gives in session/new reach Claude, whose call of the echo tool reaches the server", async () => {
    await ensureBuilt();
    const fx = await fixture(claude, await installCli(claude), CALL);
    try {
      const log = join(fx.work, "echo.log");
      const echo = {
        name: "echo",
        command: process.execPath,
        args: [join(ROOT, "test/bin/mcp-echo.ts")],
        env: [
          { name: "MCP_ECHO_LOG", value: log },
          { name: "MCP_ECHO_TOKEN", value: TOKEN },
        ],
      };
      // Edit mode, under od's sandbox: Claude's own settings allow the tool (headless, nobody else could).
      allowInClaudeSettings(fx.home);
      const c = acpClient([DIST_OD, "acp", "--agent", "claude", "--mode", "edit"], fx.env);
      await c.initialize();
      const { sessionId } = (await c.agent.request("session/new", { cwd: fx.work, mcpServers: [echo] })) as { sessionId: string };
      const res = await c.prompt(sessionId, "Call the echo tool");
      const why = c.stderr().slice(-1500);
      expect(res.stopReason, why).toBe("end_turn");
      expect(readFileSync(log, "utf8")).toBe("hello echo\n");
      const texts = c.of("agent_message_chunk").map((u) => (u.content.type === "text" ? u.content.text : ""));
      expect(texts.join("")).toContain("CLAUDE_HEARD_ECHO");
      expect(JSON.stringify(c.of("tool_call_update"))).toContain(`ECHO:hello echo:${TOKEN}`);
      const saved = join(fx.env.OD_HOME!, "acp-sessions");
      for (const f of readdirSync(saved)) expect(readFileSync(join(saved, f), "utf8")).not.toContain(TOKEN);
      expect(await c.close()).toBe(0);
    } finally {
      await fx.dispose();
    }
  }, 150_000);
});
