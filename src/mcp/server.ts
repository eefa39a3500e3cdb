import { join } from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Env } from "../core/contract/request.ts";
import { odHome } from "../core/os/paths.ts";
import { VERSION } from "../core/os/version.ts";
import { recordRun, storedRequest } from "../core/store/record.ts";
import { RunLog } from "../core/store/run-log.ts";
import type { Keeper, McpDeps } from "./context.ts";
import { registerCancelRun } from "./tools/cancel-run.ts";
import { registerListAgents } from "./tools/list-agents.ts";
import { registerRunAgent } from "./tools/run-agent.ts";

export type { Keeper, McpDeps } from "./context.ts";
export { LiveRuns } from "./context.ts";

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

/**
 * The keeper of `od mcp`: each run recorded in OD_HOME/runs as `od run` records its own (origin
 * "mcp"), so `od runs` lists it and `od runs show` replays it; a log that cannot be written is warned about once.
 */
export function recordingKeeper(env: Env, warn: (message: string) => void): Keeper {
  return async (runId, request, _controller, events) => {
    const stored = storedRequest(request, { origin: "mcp", pid: process.pid });
    for await (const _ of recordRun(events, { log: () => new RunLog(join(odHome(env), "runs")), runId, request: stored, warn })) {
      // every event is kept on its way past; run_agent's observer has seen it already
    }
  };
}
