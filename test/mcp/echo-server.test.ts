/** test/bin/mcp-echo.ts, the stdio MCP server the MCP-servers tests hand agents, under the SDK's own client. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ROOT, tmpdir } from "../helpers.ts";

test("mcp-echo lists its echo tool, answers ECHO:<text>:<token> and logs the call", async () => {
  await using tmp = tmpdir();
  const log = join(tmp.path, "calls.log");
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, "test/bin/mcp-echo.ts")],
    env: { PATH: "/usr/bin:/bin", MCP_ECHO_LOG: log, MCP_ECHO_TOKEN: "tok" },
  });
  const client = new Client({ name: "od-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["echo"]);
    const result = await client.callTool({ name: "echo", arguments: { text: "hi there" } });
    expect(result.content).toEqual([{ type: "text", text: "ECHO:hi there:tok" }]);
    expect(readFileSync(log, "utf8")).toBe("hi there\n");
  } finally {
    await client.close();
  }
}, 20_000);
