/** The run request's MCP servers (contract/mcp.ts): ACP's shapes, and every value held to one that cannot become something else. */
import { describe, expect, test } from "bun:test";
import { McpServer, McpServers } from "../../../src/core/contract/mcp.ts";
import { RunRequest } from "../../../src/core/contract/request.ts";

const stdio = { name: "echo", command: "/usr/bin/mcp-echo", args: ["--flag", "a b"], env: [{ name: "TOKEN", value: "s3cret" }] };
const http = { type: "http", name: "remote", url: "https://mcp.example.com/mcp", headers: [{ name: "Authorization", value: "Bearer x" }] };
const sse = { type: "sse", name: "events", url: "http://127.0.0.1:9/sse", headers: [] };

/** The first issue's message when `value` is refused as one server. */
const refusal = (value: unknown) =>
  McpServer.safeParse(value)
    .error?.issues.map((i) => i.message)
    .join("; ");

describe("MCP servers in a run request", () => {
  test("ACP's stdio, http and sse shapes are taken as they are; a stdio server's args and env default to empty", () => {
    expect(McpServers.parse([stdio, http, sse])).toEqual([stdio, http, sse] as never);
    expect(McpServer.parse({ name: "bare", command: "npx" })).toEqual({ name: "bare", command: "npx", args: [], env: [] });
    // Claude's `.mcp.json` spells stdio out: taken, and dropped (ACP's stdio shape has no type).
    expect(McpServer.parse({ ...stdio, type: "stdio" })).toEqual(stdio);
    expect(McpServer.parse({ type: "http", name: "h", url: "http://localhost:3000/mcp" })).toMatchObject({ headers: [] });
  });

  test("a request without servers has none; with them, they are validated with the rest", () => {
    expect(RunRequest.parse({ agent: "claude", prompt: "hi" }).mcpServers).toEqual([]);
    expect(RunRequest.parse({ agent: "claude", prompt: "hi", mcpServers: [stdio] }).mcpServers).toEqual([stdio]);
    expect(RunRequest.safeParse({ agent: "claude", prompt: "hi", mcpServers: [{ ...stdio, name: "-x" }] }).success).toBe(false);
  });

  test.each([
    ["-flag", "a flag"],
    ["_lead", "a leading underscore"],
    ["a.b", "a dot (a config path's separator)"],
    ["a b", "a space"],
    ["a/b", "a slash"],
    ["", "nothing"],
    ["x".repeat(65), "more than 64 characters"],
    ["ünï", "letters outside ASCII"],
  ])("a name like %j (%s) is refused: it becomes a config key and a tool-name prefix", (name) => {
    expect(refusal({ ...stdio, name })).toContain("MCP server's name");
  });

  test("variables, headers, commands and URLs are held to their shapes", () => {
    expect(refusal({ ...stdio, env: [{ name: "BAD-NAME", value: "x" }] })).toContain("environment variable's name");
    expect(refusal({ ...stdio, env: [{ name: "A", value: "x\u0000y" }] })).toContain("NUL");
    expect(refusal({ ...stdio, args: ["ok", "x\u0000"] })).toContain("NUL");
    expect(refusal({ ...stdio, command: "" })).toContain("command is empty");
    expect(refusal({ ...stdio, command: "\ud800" })).toContain("well-formed");
    expect(refusal({ ...http, headers: [{ name: "X-Key", value: "a\r\nInjected: 1" }] })).toContain("line break");
    expect(refusal({ ...http, headers: [{ name: "Bad Header", value: "v" }] })).toContain("header's name");
    expect(refusal({ ...http, url: "file:///etc/passwd" })).toContain("http:// or https://");
    expect(refusal({ ...http, url: "not a url" })).toBeDefined();
    expect(refusal({ type: "websocket", name: "w", url: "ws://x" })).toBeDefined();
    // Values are otherwise kept as given: quotes, shell characters, line breaks in an argument.
    const odd = ["$(rm -rf ~)", "`x`", '"q"', "line\nbreak", "☃"];
    expect(McpServer.parse({ ...stdio, args: odd })).toMatchObject({ args: odd });
  });

  test("each name once, and at most 64 servers", () => {
    const twice = McpServers.safeParse([stdio, { ...http, name: "echo" }]);
    expect(twice.error?.issues[0]?.message).toBe('two MCP servers are named "echo"');
    const many = Array.from({ length: 65 }, (_, i) => ({ name: `s${i}`, command: "x" }));
    expect(McpServers.safeParse(many).success).toBe(false);
  });
});
