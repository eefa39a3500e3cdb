import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { OdError } from "../../core/contract/errors.ts";
import { Mode } from "../../core/contract/events.ts";
import type { RunRequest } from "../../core/contract/request.ts";
import { z } from "../../core/contract/zod.ts";
import { type McpDeps, toolError } from "../context.ts";
import { Progress } from "../progress.ts";
import { checkCwd, checkMode } from "../roots.ts";
import { runForTool } from "../run.ts";

const input = {
  agent: z.string().min(1).describe("the agent's id, from list_agents (claude, codex, pi, ...)"),
  prompt: z.string().min(1).describe("the task for the agent, as you would type it to it"),
  cwd: z.string().optional().describe("the agent's working directory, inside one of this server's roots (default: the first root)"),
  mode: Mode.optional().describe("read-only (the default), edit (file edits in cwd) or full; at most the server's --max-mode"),
  model: z.string().optional().describe("a model the agent offers (list_agents); default: the agent's own"),
  effort: z.string().optional().describe("an effort level the agent offers (list_agents)"),
  resume: z.string().optional().describe("a session id from an earlier run_agent result, to continue that conversation"),
};

/** The pipeline's request from the tool's arguments, within the server's policy; a request beyond it is refused here. */
export function requestFrom(deps: McpDeps, args: z.infer<z.ZodObject<typeof input>>): RunRequest {
  if (!deps.registry.get(args.agent))
    throw new OdError("AGENT_UNKNOWN", `No agent named "${args.agent}"`, "list_agents lists the agents this machine has.");
  const mode = checkMode(args.mode, deps.policy.maxMode);
  const cwd = checkCwd(args.cwd, deps.policy.roots);
  return { agent: args.agent, prompt: args.prompt, cwd, mode, model: args.model, effort: args.effort, resume: args.resume };
}

export function registerRunAgent(server: McpServer, deps: McpDeps): void {
  server.registerTool(
    "run_agent",
    {
      title: "Run a coding agent",
      description:
        "Hands a task to another coding agent (Claude Code, Codex, Gemini CLI, pi, ... see list_agents) and waits for it to finish. " +
        "Returns the agent's final text, the files it changed (with the diff in a git repository) " +
        "and its session id (resume continues it). " +
        "Progress notifications carry the run's id first (for cancel_run), then the agent's text as it streams. " +
        "The agent runs read-only unless you ask for a wider mode this server allows.",
      inputSchema: input,
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    },
    async (args, extra) => {
      let request: RunRequest;
      try {
        request = requestFrom(deps, args);
      } catch (err) {
        return toolError(err);
      }
      const progress = new Progress(extra._meta?.progressToken, (n) => extra.sendNotification(n));
      return runForTool(deps, request, progress, extra.signal);
    },
  );
}
