import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { VERSION } from "../core/os/version.ts";
import type { McpDeps } from "./context.ts";
import { registerCancelRun } from "./tools/cancel-run.ts";
import { registerListAgents } from "./tools/list-agents.ts";
import { registerRunAgent } from "./tools/run-agent.ts";

export type { McpDeps } from "./context.ts";

const INSTRUCTIONS =
  "od drives the coding-agent CLIs installed on this machine through one interface. list_agents shows them; " +
  "run_agent hands one of them a task and returns its answer, the files it changed and its session id; cancel_run stops a run. " +
  "Runs are read-only unless this server allows more, and only in folders under its roots.";

/** od as an MCP server: its three tools over `deps`. One per connection (stdio) or per HTTP request (stateless). */
export function createMcpServer(deps: McpDeps): McpServer {
  const server = new McpServer({ name: "od", title: "od: every coding agent", version: VERSION }, { instructions: INSTRUCTIONS });
  registerListAgents(server, deps);
  registerRunAgent(server, deps);
  registerCancelRun(server, deps);
  return server;
}
