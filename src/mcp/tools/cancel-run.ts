import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { OdError } from "../../core/contract/errors.ts";
import { z } from "../../core/contract/zod.ts";
import { type McpDeps, toolError } from "../context.ts";

/**
 * cancel_run: stops a live run that run_agent started (the agent's whole process group goes, as on
 * Ctrl-C); the run_agent call then answers with status "cancelled". A run that already ended, or
 * that another server started, is not found.
 */
export function registerCancelRun(server: McpServer, deps: McpDeps): void {
  server.registerTool(
    "cancel_run",
    {
      title: "Cancel a run",
      description:
        "Cancels a live run_agent run by its runId (the first progress notification of run_agent tells it, and its result carries it). " +
        "The run_agent call then returns with status cancelled.",
      inputSchema: { runId: z.string().min(1).describe("the run's id") },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ runId }) => {
      // Only a run an MCP caller started: another surface's runs are not this caller's to stop.
      const run = deps.runs.get(runId);
      const mine = run !== undefined && deps.runs.summary(runId).origin === "mcp";
      if (!mine || !deps.runs.cancel(runId))
        return toolError(
          new OdError(
            "RUN_NOT_FOUND",
            `No live run ${runId} on this server`,
            "It may have finished already; its run_agent result says how.",
          ),
        );
      return { content: [{ type: "text", text: `cancelling run ${runId}: its run_agent call returns once the agent has stopped` }] };
    },
  );
}
