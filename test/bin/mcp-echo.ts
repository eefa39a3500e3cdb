#!/usr/bin/env bun
/**
 * A stdio MCP server for tests, on the official SDK: one tool, `echo`, that answers
 * `ECHO:<text>` and, with $MCP_ECHO_LOG set, appends each call's text to that file (so a test sees
 * the call happened and that the variables a config gives the server reached it). With
 * $MCP_ECHO_TOKEN set, the answer carries it too: `ECHO:<text>:<token>`.
 */
import { appendFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "mcp-echo", version: "1.0.0" });
server.registerTool(
  "echo",
  {
    title: "Echo",
    description: "Answers with the text it is given, prefixed with ECHO:.",
    inputSchema: { text: z.string().describe("what to echo") },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  async ({ text }) => {
    if (process.env.MCP_ECHO_LOG) appendFileSync(process.env.MCP_ECHO_LOG, `${text}\n`);
    const token = process.env.MCP_ECHO_TOKEN;
    return { content: [{ type: "text", text: `ECHO:${text}${token ? `:${token}` : ""}` }] };
  },
);
await server.connect(new StdioServerTransport());
