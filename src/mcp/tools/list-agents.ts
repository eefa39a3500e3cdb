import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { detectCached } from "../../core/agents/detect-cache.ts";
import type { Adapter } from "../../core/contract/adapter.ts";
import type { Mode } from "../../core/contract/events.ts";
import { z } from "../../core/contract/zod.ts";
import { type McpDeps, toolError } from "../context.ts";
import { MODES, within } from "../roots.ts";

/** The modes an agent can be held to, within the server's maximum: what a caller may ask run_agent for. */
export function modesOf(adapter: Adapter, max: Mode): Mode[] {
  const offers: Record<Mode, boolean> = { "read-only": adapter.capabilities.readOnly, edit: adapter.capabilities.edit, full: true };
  return MODES.filter((m) => offers[m] && within(m, max));
}

/** The installed agents: detection (od's 24 h cache), with the modes this server allows each, and models where known. */
export async function listAgents(deps: McpDeps, refresh = false) {
  const adapters = deps.registry.list().map((e) => e.adapter);
  const { detections } = await detectCached(adapters, { env: deps.env, refresh });
  const byId = new Map(adapters.map((a) => [a.id, a]));
  return detections
    .filter((d) => d.installed)
    .map((d) => {
      const adapter = byId.get(d.id)!;
      return {
        id: d.id,
        name: d.name,
        status: d.status,
        version: d.version,
        modes: modesOf(adapter, deps.policy.maxMode),
        models: d.models,
        efforts: d.efforts,
        resume: adapter.capabilities.resume,
        ...(d.status === "ready" ? {} : { problems: d.problems.map((p) => p.message) }),
      };
    });
}

export function registerListAgents(server: McpServer, deps: McpDeps): void {
  server.registerTool(
    "list_agents",
    {
      title: "List coding agents",
      description:
        "The coding-agent CLIs installed on this machine that run_agent can drive: id, status (ready, logged-out, ...), " +
        "version, the modes this server allows for each, and its models and effort levels where known.",
      inputSchema: { refresh: z.boolean().optional().describe("probe the CLIs again instead of using od's 24 h cache") },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ refresh }) => {
      try {
        const agents = await listAgents(deps, refresh);
        const policy = { maxMode: deps.policy.maxMode, roots: deps.policy.roots };
        return {
          content: [{ type: "text", text: JSON.stringify({ agents, ...policy }, null, 2) }],
          structuredContent: { agents, ...policy },
        };
      } catch (err) {
        return toolError(err);
      }
    },
  );
}
