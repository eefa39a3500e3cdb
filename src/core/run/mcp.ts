import type { Adapter } from "../contract/adapter.ts";
import type { Mode, OdEventBody } from "../contract/events.ts";
import { type McpServer, namesOf } from "../contract/mcp.ts";
import type { ValidRequest } from "../contract/request.ts";
import { plannedPrivateDir } from "../os/private-files.ts";

/** The run's MCP servers as planned: those its agent gets, where their files go, or why none were given. */
export interface McpPlan {
  /** What invoke (and an ACP session) gets: empty when the agent takes none. */
  given: McpServer[];
  /** The private folder the invocation's files (a CLI's MCP config) are written to at launch. */
  filesDir?: string;
  /** The run's one word on servers its agent cannot take: a status, shown after the header. */
  note?: OdEventBody;
}

/**
 * One rule for every adapter: servers go to an agent whose capabilities take them (its `invoke`
 * places them in its CLI's flags, config files or environment; an ACP agent's session gets them),
 * run on this machine. Anyone else's run goes on without them, and says once which were not given.
 * On a target they are never given: a stdio server's command names a program on this machine. Nor
 * in read-only mode to a CLI whose own approvals are off because od's sandbox holds the run
 * (`cliMode` full: Codex): it would run every MCP tool unasked, and no MCP tool is allowed unasked
 * in read-only mode.
 */
export function planMcp(adapter: Adapter, request: Pick<ValidRequest, "mcpServers" | "on" | "mode">, cliMode?: Mode): McpPlan {
  const servers = request.mcpServers;
  if (!servers.length) return { given: [] };
  const why = !adapter.capabilities.mcpServers
    ? "cannot take MCP servers"
    : request.on
      ? `cannot take MCP servers on ${request.on} (they are this machine's)`
      : request.mode === "read-only" && cliMode === "full"
        ? "runs its tools unasked inside od's sandbox (its own approvals are off), so a read-only run gives it no MCP servers"
        : undefined;
  if (!why) return { given: servers, filesDir: plannedPrivateDir("files") };
  return { given: [], note: { type: "status", label: "mcp", detail: `${adapter.name} ${why}; these were not given: ${namesOf(servers)}` } };
}
