/**
 * The API a plugin gets (`import { defineAdapter, z } from "od"`, or a factory's argument), built
 * from core alone, so a plugin's own thread (plugin-worker.ts, bundled without the rest of od)
 * can give its plugin the same module. `src/plugin.ts` publishes it, and its members by name.
 */
import { z } from "zod";
import { defineAdapter, defineLinesProtocol } from "../contract/adapter.ts";
import { OdError } from "../contract/errors.ts";
import { VERSION } from "../os/version.ts";
import { acpToolKind } from "../protocols/acp-tools.ts";
import { classifyStderr, classifyText, errorFromText } from "../protocols/classify-text.ts";
import { claudeStream, errorOnce, failedResultText, parseToolInput, toolCallOnce } from "../protocols/claude-stream.ts";
import { arr, asRecord, num, str, textOf } from "../protocols/parse-helpers.ts";
import { planStatus, todoPlan } from "../protocols/plan-entries.ts";
import { factsOf, pathsIn, todosAt, toolCallEvents, toolTable } from "../protocols/tool-facts.ts";

export const pluginApi = {
  classifyStderr,
  classifyText,
  errorFromText,
  defineAdapter,
  defineLinesProtocol,
  OdError,
  arr,
  asRecord,
  num,
  str,
  textOf,
  version: VERSION,
  z,
  claudeStream,
  errorOnce,
  failedResultText,
  parseToolInput,
  toolCallOnce,
  // A tool call's kind, files and plan (tool-facts.ts, plan-entries.ts): what a CLI says besides the name.
  acpToolKind,
  factsOf,
  pathsIn,
  planStatus,
  todoPlan,
  todosAt,
  toolCallEvents,
  toolTable,
};
