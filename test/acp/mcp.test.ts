/**
 * `od acp` hands the MCP servers a client gives in session/new to the agent it runs: here an ACP
 * agent (test/bin/fake-acp.ts installed as `gemini`, driven through gemini-acp), whose own
 * session/new must carry them as the client sent them; a server od cannot take safely is refused at
 * session/new, and no value of a server is saved with the session.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { RequestError } from "@agentclientprotocol/sdk";
import { FAKE_ACP, installFake, ROOT, tmpdir } from "../helpers.ts";
import { acpClient } from "./client.ts";

const od = ["acp", "--agent", "gemini-acp"];
const SECRET = "ODACP-MCP-SECRET";
const servers = [
  { name: "echo", command: "/opt/mcp/echo", args: ["--x"], env: [{ name: "ECHO_TOKEN", value: SECRET }] },
  { type: "http" as const, name: "docs", url: "https://mcp.example.com/mcp", headers: [{ name: "Authorization", value: SECRET }] },
];
const chunk = (text: string) => ({ update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } });

describe("od acp: the client's MCP servers", () => {
  test("session/new's servers reach the agent's session/new as given; od says it takes http and sse", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "gemini", { mcpCapabilities: { http: true, sse: true }, turn: [chunk("ok")] }, FAKE_ACP);
    const env = { ...fake.env, OD_HOME: join(tmp.path, "od-home") };
    const c = acpClient([process.execPath, join(ROOT, "src/main.ts"), ...od], env);
    const init = await c.initialize();
    expect(init.agentCapabilities?.mcpCapabilities).toEqual({ http: true, sse: true });
    const { sessionId } = (await c.agent.request("session/new", { cwd: tmp.path, mcpServers: servers })) as { sessionId: string };
    expect((await c.prompt(sessionId, "hi")).stopReason).toBe("end_turn");
    const received = readFileSync(fake.env.FAKE_RECORD!, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    // (od's own probe of the agent's models opens a session of its own elsewhere, with none.)
    const opened = received.filter((m) => m.method === "session/new" && m.params.cwd === tmp.path);
    expect(opened.map((m) => m.params)).toEqual([{ cwd: tmp.path, mcpServers: servers }]);
    // The session od keeps for session/load, and the run's request.json: the servers' names, never their values.
    const saved = join(tmp.path, "od-home", "acp-sessions");
    for (const f of readdirSync(saved)) expect(readFileSync(join(saved, f), "utf8")).not.toContain(SECRET);
    const runs = join(tmp.path, "od-home", "runs");
    for (const r of readdirSync(runs)) expect(readFileSync(join(runs, r, "request.json"), "utf8")).not.toContain(SECRET);
    expect(await c.close()).toBe(0);
  }, 30_000);

  test("session/load's servers reach the agent's session/load (the next prompt resumes the agent's session with them)", async () => {
    await using tmp = tmpdir();
    const script = { loadSession: true, mcpCapabilities: { http: true }, turn: [chunk("ok")] };
    const fake = installFake(tmp.path, "qwen", script, FAKE_ACP); // qwen-acp resumes; gemini-acp does not
    const argv = [process.execPath, join(ROOT, "src/main.ts"), "acp", "--agent", "qwen-acp"];
    const c = acpClient(argv, { ...fake.env, OD_HOME: join(tmp.path, "h") });
    await c.initialize();
    await c.agent.request("session/load", { sessionId: "agents-own", cwd: tmp.path, mcpServers: servers });
    expect((await c.prompt("agents-own", "go on")).stopReason).toBe("end_turn");
    const loads = readFileSync(fake.env.FAKE_RECORD!, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .filter((m) => m.method === "session/load");
    expect(loads.map((m) => m.params)).toEqual([{ cwd: tmp.path, mcpServers: servers, sessionId: "agents-own" }]);
    expect(await c.close()).toBe(0);
  }, 30_000);

  test("a server whose name would be read as something else is refused at session/new, saying why", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "gemini", { turn: [chunk("ok")] }, FAKE_ACP);
    const c = acpClient([process.execPath, join(ROOT, "src/main.ts"), ...od], { ...fake.env, OD_HOME: join(tmp.path, "h") });
    await c.initialize();
    const bad = [{ name: "a.b", command: "x", args: [], env: [] }];
    const err = (await c.agent.request("session/new", { cwd: tmp.path, mcpServers: bad }).catch((e) => e)) as RequestError;
    expect(err.message).toContain("an MCP server's name is letters, digits");
    expect(await c.close()).toBe(0);
  }, 30_000);
});
