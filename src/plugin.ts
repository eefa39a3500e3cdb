/**
 * The public plugin API: what an adapter (built-in or community) may use.
 * Community plugins get it as `import { defineAdapter, z } from "od"` or as
 * the argument of a factory `export default (od) => od.defineAdapter({...})`.
 */
import { z } from "zod";
import { defineAdapter, defineLinesProtocol } from "./core/contract/adapter.ts";
import { OdError } from "./core/contract/errors.ts";
import { VERSION } from "./core/os/version.ts";
import { acpToolKind } from "./core/protocols/acp-tools.ts";
import { classifyStderr, classifyText, errorFromText } from "./core/protocols/classify-text.ts";
// For CLIs that speak Claude Code's stream-json: the shared parser, and the pieces its hooks may use.
import { claudeStream, errorOnce, failedResultText, parseToolInput, toolCallOnce } from "./core/protocols/claude-stream.ts";
import { arr, asRecord, num, str, textOf } from "./core/protocols/parse-helpers.ts";
import { planStatus, todoPlan } from "./core/protocols/plan-entries.ts";
import { factsOf, pathsIn, todosAt, toolCallEvents, toolTable } from "./core/protocols/tool-facts.ts";

/** The same members as one object: a factory plugin's argument, and the virtual module "od" (built in core, so a plugin's own thread gives its plugin the same one). */
export { pluginApi } from "./core/agents/plugin-api.ts";
export type {
  Adapter,
  AdapterInput,
  Classification,
  ClassifyContext,
  Invocation,
  InvokeContext,
  LinesProtocol,
} from "./core/contract/adapter.ts";
export type { Mode, OdEvent, OdEventBody, PlanEntry, ToolKind } from "./core/contract/events.ts";
export type { ClaudeStreamOptions, ClaudeStreamState } from "./core/protocols/claude-stream.ts";
export type { ToolDescriber, ToolFacts, ToolRule } from "./core/protocols/tool-facts.ts";
export {
  acpToolKind,
  arr,
  asRecord,
  classifyStderr,
  classifyText,
  claudeStream,
  defineAdapter,
  defineLinesProtocol,
  errorFromText,
  errorOnce,
  factsOf,
  failedResultText,
  num,
  OdError,
  parseToolInput,
  pathsIn,
  planStatus,
  str,
  textOf,
  todoPlan,
  todosAt,
  toolCallEvents,
  toolCallOnce,
  toolTable,
  VERSION,
  z,
};
export type PluginApi = typeof import("./core/agents/plugin-api.ts").pluginApi;
