// `od mcp` in the live lane (OD_LIVE=1 bun test test/live/mcp-server.test.ts): the MCP SDK's own
// client runs run_agent on real pi, and real Claude Code, given an MCP config naming `od mcp`,
// hands pi a task through it; each CLI talks to a loopback model stub, and pi's file must exist.
import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call, connectStdio, outcomeOf, runIdFrom } from "../mcp/support.ts";
import { CLIS, installCli, type LiveCli, liveEnv } from "./clis.ts";
import { type ModelStub, type Scenario, startModelStub } from "./model-stub.ts";
import { DIST_OD, ensureBuilt } from "./od.ts";
import { killAll, survivors } from "./procs.ts";

const LIVE = process.env.OD_LIVE === "1";
const cli = (id: string) => CLIS.find((c) => c.id === id) as LiveCli;
const [claude, pi] = [cli("claude"), cli("pi")];
const bins: Record<string, string> = {};
const WRITE: Scenario = { kind: "tool-write", file: "hello.txt", content: "HELLO_FROM_PI\n", finalText: "PI_WROTE_IT" };

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.reverse()) await f();
  cleanup = [];
});

/** A fresh HOME and work folder, and a stub per scenario; all removed (and leftover processes killed) after the test. */
async function fixture(...scenarios: Scenario[]) {
  const home = mkdtempSync(join(tmpdir(), "od-live-mcp-home-"));
  const work = mkdtempSync(join(tmpdir(), "od-live-mcp-work-"));
  const stubs: ModelStub[] = [];
  for (const scenario of scenarios) stubs.push(await startModelStub({ scenario }));
  cleanup.push(async () => {
    killAll(survivors([], { home, work }));
    for (const s of stubs) await s.stop();
    rmSync(home, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });
  return { home, work, stubs };
}

describe.skipIf(!LIVE)("od mcp, live (OD_LIVE=1)", () => {
  beforeAll(async () => {
    await ensureBuilt();
    for (const c of [claude, pi]) bins[c.id] = await installCli(c);
  }, 600_000);

  test("the SDK's client runs run_agent on real pi: its text, the file it wrote, its session", async () => {
    const { home, work, stubs } = await fixture(WRITE);
    const env = liveEnv(pi, { binDir: bins.pi!, home, stubUrl: stubs[0]!.url });
    await using od = await connectStdio(["--max-mode", "edit", "--root", work], env, work);
    const { result, progress } = await call(od.client, "run_agent", { agent: "pi", prompt: "Create hello.txt", mode: "edit" });
    const out = outcomeOf(result);
    expect(out, JSON.stringify(result.content)).toMatchObject({ status: "succeeded", files: ["hello.txt"] });
    expect(out.text).toContain("PI_WROTE_IT");
    expect(out.sessionId).toBeString();
    expect(readFileSync(join(work, "hello.txt"), "utf8")).toBe("HELLO_FROM_PI\n");
    expect(runIdFrom(progress[0]!)).toBe(out.runId);
    expect(progress.map((p) => p.message).join("")).toContain("PI_WROTE_IT");
  }, 120_000);

  test("read-only through MCP: real pi gets no write tool and writes nothing", async () => {
    const { home, work, stubs } = await fixture(WRITE);
    const env = liveEnv(pi, { binDir: bins.pi!, home, stubUrl: stubs[0]!.url });
    await using od = await connectStdio(["--max-mode", "full", "--root", work], env, work);
    const { result } = await call(od.client, "run_agent", { agent: "pi", prompt: "Create hello.txt" }); // no mode: read-only
    expect(outcomeOf(result).files).toEqual([]);
    expect(existsSync(join(work, "hello.txt"))).toBe(false);
    const tools = stubs[0]!.requests.flatMap((r) => r.toolNames);
    expect(tools.length).toBeGreaterThan(0);
    expect(tools).not.toContain(pi.writeTool);
  }, 120_000);

  test("Claude Code with an MCP config naming od mcp calls run_agent on pi, and pi's file exists", async () => {
    // Two stubs: Claude's conversation is scripted to call od's tool, pi's to write the file.
    const { home, work, stubs } = await fixture({ kind: "chat" }, WRITE);
    const [outer, inner] = stubs as [ModelStub, ModelStub];
    const args = { agent: "pi", prompt: "Create hello.txt", cwd: work, mode: "edit" };
    outer.script({ kind: "script", steps: [{ tools: [{ name: "mcp__od__run_agent", args }] }, { text: "CLAUDE_SAW_IT" }] });
    const piEnv = liveEnv(pi, { binDir: bins.pi!, home, stubUrl: inner.url });
    const env = { ...liveEnv(claude, { binDir: bins.claude!, home, stubUrl: outer.url, extraPath: [bins.pi!] }), ...piEnv };
    env.PATH = [bins.claude, piEnv.PATH].join(":");
    const config = join(home, "mcp.json");
    const server = { command: DIST_OD, args: ["mcp", "--max-mode", "edit", "--root", work], env: piEnv };
    writeFileSync(config, JSON.stringify({ mcpServers: { od: server } }, null, 2));
    const argv = ["-p", "--output-format", "stream-json", "--verbose", "--mcp-config", config, "--strict-mcp-config"];
    const proc = Bun.spawn([join(bins.claude!, "claude"), ...argv, "--allowedTools", "mcp__od__run_agent"], {
      env,
      cwd: work,
      stdin: new Blob(["Ask pi, through od, to create hello.txt"]),
      stdout: "pipe",
      stderr: "pipe",
      timeout: 110_000,
    });
    const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    const lines = out.split("\n").filter((l) => l.startsWith("{"));
    const why = `exit ${proc.exitCode}\n${err.slice(-2000)}\n${lines.slice(-6).join("\n").slice(-4000)}`;
    expect(proc.exitCode, why).toBe(0);
    // Claude Code defers MCP tools behind its ToolSearch (they are not in the request's tools), yet calls one by name.
    expect(outer.requests.map((r) => r.answered)).toEqual(["tool:mcp__od__run_agent", "text"]);
    // The tool result Claude got back (it hands the model structuredContent, as JSON) carries pi's answer and its file.
    const toolResult = JSON.parse(lines.find((l) => l.includes('"tool_result"'))!).message.content[0];
    expect(JSON.parse(toolResult.content), why).toMatchObject({ status: "succeeded", text: "PI_WROTE_IT", files: ["hello.txt"] });
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ type: "result", result: "CLAUDE_SAW_IT" });
    expect(readFileSync(join(work, "hello.txt"), "utf8")).toBe("HELLO_FROM_PI\n");
    expect(inner.requests.some((r) => r.toolNames.includes(pi.writeTool))).toBe(true);
  }, 150_000);
});
