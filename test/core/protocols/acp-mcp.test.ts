/**
 * MCP servers over ACP (protocols/acp-mcp.ts): what session/new carries for the agent's
 * mcpCapabilities, which tool calls are an MCP server's, and the read-only policy on them; then a
 * run against the fake ACP agent, whose session/new must carry the request's servers as given.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createRegistry } from "../../../src/core/agents/registry.ts";
import type { Mode } from "../../../src/core/contract/events.ts";
import type { McpServer } from "../../../src/core/contract/mcp.ts";
import { isMcpTool, sessionMcpServers } from "../../../src/core/protocols/acp-mcp.ts";
import { policyDecision } from "../../../src/core/run/permissions.ts";
import { collect, FAKE_ACP, finished, installFake, ofType, tmpdir } from "../../helpers.ts";
import { fakeAcpAdapter } from "../../support/fake-adapter.ts";
import { runAgent } from "../../support/run.ts";

const stdio: McpServer = { name: "echo", command: "/opt/echo", args: ["-v"], env: [{ name: "TOKEN", value: "t0k" }] };
const http: McpServer = { type: "http", name: "docs", url: "https://mcp.example.com/mcp", headers: [] };
const sse: McpServer = { type: "sse", name: "events", url: "http://127.0.0.1:9/sse", headers: [] };
const all = [stdio, http, sse];

describe("session/new's mcpServers, by the agent's mcpCapabilities", () => {
  test.each([
    [
      "says nothing: stdio only",
      undefined,
      ["echo"],
      "Agent cannot take HTTP or SSE MCP servers (its mcpCapabilities); these were not given: docs, events",
    ],
    [
      "http only",
      { http: true },
      ["echo", "docs"],
      "Agent cannot take SSE MCP servers (its mcpCapabilities); these were not given: events",
    ],
    ["both", { http: true, sse: true }, ["echo", "docs", "events"], undefined],
    [
      "false is no",
      { http: false, sse: "yes" },
      ["echo"],
      "Agent cannot take HTTP or SSE MCP servers (its mcpCapabilities); these were not given: docs, events",
    ],
  ])("%s", (_what, mcpCapabilities, sent, said) => {
    const { mcpServers, note } = sessionMcpServers(all, mcpCapabilities === undefined ? {} : { mcpCapabilities }, "Agent");
    expect(mcpServers.map((s) => s.name)).toEqual(sent);
    expect(note?.type === "status" ? note.detail : undefined).toBe(said);
  });

  test("none given: an empty list and no word", () => {
    expect(sessionMcpServers(undefined, {}, "Agent")).toEqual({ mcpServers: [] });
  });
});

describe("an MCP server's tool call, as the agent's words tell", () => {
  test.each([
    [{ title: "mcp__echo__say" }, {}, true],
    [{ title: "mcp_docs_search" }, {}, true],
    [{ title: "Write", _meta: { claudeCode: { mcpServer: "echo", toolName: "say" } } }, {}, true],
    [{ title: "say (echo MCP Server)" }, {}, true],
    [{ title: "echo__say" }, {}, true],
    [{ title: "something" }, { name: "echo/say" }, true],
    [{ title: "Write hello.txt", kind: "edit" }, {}, false],
    [{ title: "echoes" }, {}, false], // a prefix of nothing: not "echo__"
    [{ title: "Read mcp.md" }, {}, false],
  ])("%j (known %j): %p", (toolCall, known, want) => {
    expect(isMcpTool(toolCall, known, [stdio])).toBe(want);
  });
});

describe("the policy on an MCP tool", () => {
  const cases: Array<[Mode, "read" | "edit" | "execute" | "other", boolean, "allow" | "deny"]> = [
    ["read-only", "read", true, "deny"], // whatever kind the agent gives it
    ["read-only", "read", false, "allow"],
    ["edit", "read", true, "allow"],
    ["edit", "other", true, "deny"],
    ["full", "other", true, "allow"],
  ];
  test.each(cases)("%s, kind %s, mcp %p: %s", (mode, kind, mcp, want) => {
    expect(policyDecision({ kind, paths: undefined, mcp }, mode, "/w").decision).toBe(want);
  });
});

describe("an ACP run with MCP servers", () => {
  const taker = { ...fakeAcpAdapter, capabilities: { ...fakeAcpAdapter.capabilities, mcpServers: true } };
  const registry = createRegistry([taker]);
  async function run(script: Record<string, unknown>, mode: Mode = "edit") {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-acp", script, FAKE_ACP);
    const request = { agent: "fake-acp", prompt: "hi", cwd: tmp.path, mode, mcpServers: all };
    const events = await collect(runAgent(request, { registry, env: fake.env }));
    const received = readFileSync(join(tmp.path, "fake-acp.record.json"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    return { events, session: received.find((m) => m.method === "session/new")?.params, cwd: tmp.path };
  }

  test("session/new carries the servers in ACP's shapes, those the agent takes; the run says which it left out", async () => {
    const { events, session, cwd } = await run({
      mcpCapabilities: { http: true },
      turn: [{ update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "ok" } } }],
    });
    expect(finished(events).status).toBe("succeeded");
    expect(session).toEqual({ cwd, mcpServers: [stdio, http] });
    const said = ofType(events, "status").filter((e) => e.label === "mcp");
    expect(said.map((e) => e.detail)).toEqual(["Fake ACP cannot take SSE MCP servers (its mcpCapabilities); these were not given: events"]);
  });

  test("an MCP tool's permission request in read-only is denied by od's policy, whatever kind it says", async () => {
    const ask = {
      permission: {
        toolCall: { toolCallId: "m-1", title: "mcp__echo__say", kind: "read" },
        options: [
          { optionId: "yes", name: "Allow", kind: "allow_once" },
          { optionId: "no", name: "Reject", kind: "reject_once" },
        ],
      },
    };
    const { events } = await run({ mcpCapabilities: { http: true, sse: true }, turn: [ask] }, "read-only");
    const decided = ofType(events, "permission.decision");
    expect(decided.map((d) => [d.decision, d.reason])).toEqual([
      ["deny", "read-only mode allows no MCP tool (what one does is its server's to say, not od's)"],
    ]);
  });
});
