import type { Adapter } from "../contract/adapter.ts";
import type { OdEventBody } from "../contract/events.ts";
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
 * in read-only mode to an agent whose approvals od does not see (no relayApprovals: every CLI but
 * an ACP agent): no MCP tool is allowed unasked in read-only, and such a CLI's own approvals can be
 * lifted by its user's settings (Claude Code's plan mode ran an MCP tool its settings allowed) or
 * are off where od's sandbox holds the mode (Codex); not given, no server process starts at all.
 * An ACP agent gets them, and od's policy denies each MCP tool it asks about (run/permissions.ts).
 */
export function planMcp(adapter: Adapter, request: Pick<ValidRequest, "mcpServers" | "on" | "mode">): McpPlan {
  const servers = request.mcpServers;
  if (!servers.length) return { given: [] };
  const why = !adapter.capabilities.mcpServers
    ? "cannot take MCP servers"
    : request.on
      ? `cannot take MCP servers on ${request.on} (they are this machine's)`
      : request.mode === "read-only" && !adapter.capabilities.relayApprovals
        ? "cannot be held to read-only for MCP tools (od sees none of its approvals), so a read-only run gives it no MCP servers"
        : undefined;
  if (!why) return { given: servers, filesDir: plannedPrivateDir("files") };
  return { given: [], note: { type: "status", label: "mcp", detail: `${adapter.name} ${why}; these were not given: ${namesOf(servers)}` } };
}
