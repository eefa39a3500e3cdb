import type { OdEventBody } from "../contract/events.ts";
import { isStdio, type McpServer, namesOf } from "../contract/mcp.ts";
import { asRecord, type Rec } from "./parse-helpers.ts";

/**
 * The run's MCP servers as an ACP agent's `session/new` (and `session/load`) takes them: as given,
 * in ACP's own shapes. Every agent takes stdio servers; HTTP and SSE only one that says so in its
 * `agentCapabilities.mcpCapabilities` (the protocol forbids sending others). What it cannot take is
 * left out, and the run says which, once.
 */
export function sessionMcpServers(
  servers: readonly McpServer[] | undefined,
  capabilities: Rec | undefined,
  agent: string,
): { mcpServers: McpServer[]; note?: OdEventBody } {
  const can = asRecord(capabilities?.mcpCapabilities);
  const taken = (s: McpServer) => isStdio(s) || can?.[s.type] === true;
  const mcpServers = (servers ?? []).filter(taken);
  const left = (servers ?? []).filter((s) => !taken(s));
  if (!left.length) return { mcpServers };
  const kinds = [...new Set(left.map((s) => (isStdio(s) ? "stdio" : s.type.toUpperCase())))].join(" or ");
  const detail = `${agent} cannot take ${kinds} MCP servers (its mcpCapabilities); these were not given: ${namesOf(left)}`;
  return { mcpServers, note: { type: "status", label: "mcp", detail } };
}

/**
 * Whether an agent's tool call is an MCP tool's, as far as its words tell: a name in the usual
 * prefixed forms (Claude Code's `mcp__<server>__<tool>`, Gemini's `mcp_<server>_<tool>`), Claude's
 * bridge naming the server in `_meta`, or the name or title of one of the run's own servers
 * (`<server>__tool`, `<server>/tool`, `tool (<server> MCP Server)`). The permission policy allows
 * no MCP tool unasked in read-only mode, whatever kind the agent gives it (contract/permissions.ts).
 */
export function isMcpTool(toolCall: Rec, known: { name?: string; title?: string } = {}, servers: readonly McpServer[] = []): boolean {
  const meta = asRecord(toolCall._meta);
  const claude = asRecord(meta?.claudeCode);
  if (claude?.mcpServer !== undefined) return true;
  // Asked on every permission request: a look at four characters, not a regex, and no list when the run has no server.
  if (
    mcpPrefixed(meta?.toolName) ||
    mcpPrefixed(claude?.toolName) ||
    mcpPrefixed(toolCall.title) ||
    mcpPrefixed(known.name) ||
    mcpPrefixed(known.title)
  )
    return true;
  if (!servers.length) return false;
  const said = [meta?.toolName, claude?.toolName, toolCall.title, known.name, known.title].filter(
    (w): w is string => typeof w === "string",
  );
  return servers.some(({ name }) =>
    said.some((w) => w.startsWith(`${name}__`) || w.startsWith(`${name}/`) || w.includes(`(${name} MCP Server)`)),
  );
}

/** A string that `/^mcp_/i` matches: "mcp_" in any case (ASCII letters fold, as the regex's do). */
function mcpPrefixed(w: unknown): boolean {
  return (
    typeof w === "string" &&
    (w.charCodeAt(0) | 32) === 109 &&
    (w.charCodeAt(1) | 32) === 99 &&
    (w.charCodeAt(2) | 32) === 112 &&
    w.charCodeAt(3) === 95
  );
}
