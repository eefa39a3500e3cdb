/**
 * The plugin API, listed once: every member a plugin (built-in or community) may use. This
 * module's exports ARE the API: `src/plugin.ts` (the package's `od/plugin`) re-exports them, and
 * at run time the virtual modules `od/plugin` and `od` (plugin-import.ts) are this module's
 * namespace, as is a factory plugin's argument. It is built from core alone, so a plugin's own
 * thread (plugin-worker.ts, bundled without the rest of od) gives its plugin the same module.
 */

export type {
  Adapter,
  AdapterInput,
  Classification,
  ClassifyContext,
  Invocation,
  InvokeContext,
  LinesProtocol,
} from "../contract/adapter.ts";
export { defineAdapter, defineLinesProtocol } from "../contract/adapter.ts";
export { OdError } from "../contract/errors.ts";
export type { Mode, OdEvent, OdEventBody, PlanEntry, ToolKind } from "../contract/events.ts";
export type { McpServer } from "../contract/mcp.ts";
export { isStdio } from "../contract/mcp.ts";
export { z } from "../contract/zod.ts";
export { VERSION } from "../os/version.ts";
// A tool call's kind, files and plan (tool-facts.ts, plan-entries.ts): what a CLI says besides the name.
export { acpToolKind } from "../protocols/acp-tools.ts";
export { classifyStderr, classifyText, errorFromText } from "../protocols/classify-text.ts";
// For CLIs that speak Claude Code's stream-json: the shared parser, and the pieces its hooks may use.
export type { ClaudeStreamOptions, ClaudeStreamState } from "../protocols/claude-stream.ts";
export { claudeStream, errorOnce, failedResultText, toolCallOnce } from "../protocols/claude-stream.ts";
export { arr, asRecord, num, parseToolInput, str, textOf } from "../protocols/parse-helpers.ts";
export { planStatus, todoPlan } from "../protocols/plan-entries.ts";
export type { ToolDescriber, ToolFacts, ToolRule } from "../protocols/tool-facts.ts";
export { factsOf, pathsIn, todosAt, toolCallEvents, toolTable } from "../protocols/tool-facts.ts";
export type { AcpAgentInput, AcpModeOption } from "./acp-agent.ts";
export { defineAcpAgent } from "./acp-agent.ts";
export { flag, parseVersion } from "./adapter-helpers.ts";
export { mcpServersObject, mcpSettingsFile, pairsObject } from "./mcp-config.ts";
