import { arr, asRecord, errorFromText, num, type OdEventBody, str, toolCallEvents, toolTable } from "../../src/plugin.ts";

/**
 * Copilot CLI `--output-format json`: one `{type, data, id, timestamp, parentId, ephemeral?}` per
 * line, and a last `{type:"result", sessionId, exitCode, usage}` without `data`. The session id is
 * only in that last record. Token counts are not in this stream at all: the CLI leaves
 * `assistant.usage` out of its JSON output (its `result.usage` holds only request counts and timings).
 */

export const AGENT = {
  name: "GitHub Copilot CLI",
  login:
    "run `copilot` and type /login, set COPILOT_GITHUB_TOKEN, or bring your own key with COPILOT_PROVIDER_BASE_URL and COPILOT_PROVIDER_API_KEY",
};

/** Records that carry nothing for od: bookkeeping, echoes of the prompt, and partial tool arguments. */
const QUIET = new Set([
  "session.skills_loaded",
  "session.mcp_servers_loaded",
  "session.tools_updated",
  "session.mode_notice_delivered",
  "session.background_tasks_changed",
  "user.message",
  "assistant.turn_start",
  "assistant.turn_end",
  "assistant.message_start",
  "assistant.tool_call_delta",
  "assistant.idle",
  "model.call_start",
  "model.call_finished",
  "model.call_final_result",
]);

/** Copilot CLI's tools (its own names): kind and the input keys naming files. */
export const copilotTools = toolTable({
  view: { kind: "read", paths: ["path"] },
  create: { kind: "edit", paths: ["path"] },
  edit: { kind: "edit", paths: ["path"] },
  str_replace_editor: { kind: "edit", paths: ["path"] },
  bash: { kind: "execute" },
  powershell: { kind: "execute" },
  read_bash: { kind: "execute" },
  write_bash: { kind: "execute" },
  stop_bash: { kind: "execute" },
  list_bash: { kind: "execute" },
  grep: { kind: "search", paths: ["path"] },
  glob: { kind: "search", paths: ["path"] },
  web_fetch: { kind: "fetch" },
  web_search: { kind: "fetch" },
  task: { kind: "think" },
  report_intent: { kind: "think" },
  update_todo: { kind: "think" },
});

/** `session.error` kinds the shared classifier would not recognise from the message alone. */
const ERROR_TYPES: Record<string, string> = { context_limit: "context length exceeded", rate_limit: "rate limit" };

export interface CopilotState {
  /** Message and reasoning ids whose text already streamed as deltas. */
  streamed: Set<string>;
  calls: Set<string>;
  /** An error was already reported (e.g. at the first 401): the closing `session.error` repeats it. */
  failed: boolean;
}

export const createState = (): CopilotState => ({ streamed: new Set(), calls: new Set(), failed: false });

export function parse(record: unknown, state: CopilotState, line: string): OdEventBody[] {
  const r = asRecord(record);
  const type = str(r?.type) ?? "";
  const d = asRecord(r?.data);
  if (QUIET.has(type)) return [];
  switch (type) {
    case "assistant.message_delta":
      return delta(state, "text.delta", str(d?.messageId), str(d?.deltaContent));
    case "assistant.reasoning_delta":
      return delta(state, "thinking.delta", str(d?.reasoningId), str(d?.deltaContent));
    case "assistant.message":
      return message(d, state);
    case "assistant.reasoning":
      return whole(state, "thinking.delta", str(d?.reasoningId), str(d?.content));
    case "tool.execution_start":
      return call(state, str(d?.toolCallId), str(d?.toolName), d?.arguments);
    case "tool.execution_complete": {
      const result = asRecord(d?.result);
      const output = str(result?.content) ?? str(asRecord(d?.error)?.message) ?? "";
      return [{ type: "tool.result", id: str(d?.toolCallId) ?? "", output, isError: d?.success !== true }];
    }
    case "model.call_failure":
      return callFailure(d, state);
    case "assistant.turn_retry":
      return [{ type: "status", label: "retrying", detail: str(d?.reason) }];
    case "session.info":
    case "session.warning":
      return [{ type: "status", label: str(d?.infoType) ?? str(d?.warningType) ?? type, detail: str(d?.message) }];
    case "session.error": {
      const kind = str(d?.errorType);
      const status = num(d?.statusCode);
      const text = `${status !== undefined ? `${status} ` : ""}${str(d?.message) ?? "Copilot reported an error"}${kind ? ` (${ERROR_TYPES[kind] ?? kind})` : ""}`;
      return fail(state, text);
    }
    case "agent.interrupted":
      return [{ type: "status", label: "interrupted", detail: str(d?.activity) }];
    case "abort":
      return [{ type: "status", label: "aborted", detail: str(d?.reason) }];
    case "result":
      return str(r?.sessionId) ? [{ type: "session", sessionId: str(r?.sessionId)! }] : [];
    default:
      return [{ type: "raw", stream: "stdout", line }];
  }
}

function delta(
  state: CopilotState,
  type: "text.delta" | "thinking.delta",
  id: string | undefined,
  text: string | undefined,
): OdEventBody[] {
  if (!id || !text) return [];
  state.streamed.add(id);
  return [{ type, id, text }];
}

/** A complete message or reasoning block: only when it did not stream (`--stream off`). */
function whole(
  state: CopilotState,
  type: "text.delta" | "thinking.delta",
  id: string | undefined,
  text: string | undefined,
): OdEventBody[] {
  if (!id || !text || state.streamed.has(id)) return [];
  state.streamed.add(id);
  return [{ type, id, text }];
}

function message(d: Record<string, unknown> | undefined, state: CopilotState): OdEventBody[] {
  const id = str(d?.messageId);
  // Its `reasoningText` repeats the `assistant.reasoning` record that follows it.
  return [
    ...whole(state, "text.delta", id, str(d?.content)),
    ...arr(d?.toolRequests).flatMap((t) => call(state, str(asRecord(t)?.toolCallId), str(asRecord(t)?.name), asRecord(t)?.arguments)),
  ];
}

function call(state: CopilotState, id: string | undefined, name: string | undefined, input: unknown): OdEventBody[] {
  if (!id || state.calls.has(id)) return [];
  state.calls.add(id);
  const called = name ?? "tool";
  const given = input ?? {};
  return toolCallEvents(id, called, given, copilotTools(called, given));
}

/**
 * One failed model call. Copilot retries a 401 three times before its `session.error`; a rejected
 * key never heals, so the first 401 is reported at once. Other failures are retried: a status.
 */
function callFailure(d: Record<string, unknown> | undefined, state: CopilotState): OdEventBody[] {
  const status = num(d?.statusCode);
  const detail = providerMessage(str(d?.errorMessage));
  if (status === 401) return fail(state, `401 ${detail ?? "authentication failed"}`);
  return [
    { type: "status", label: "model call failed", detail: [status, str(d?.failureKind), detail].filter((x) => x !== undefined).join(" ") },
  ];
}

/** `errorMessage` holds the provider's JSON error object as text: its `message`, else the text. */
function providerMessage(text: string | undefined): string | undefined {
  if (!text) return undefined;
  try {
    return str(asRecord(JSON.parse(text))?.message) ?? text;
  } catch {
    return text;
  }
}

function fail(state: CopilotState, text: string): OdEventBody[] {
  if (state.failed) return [];
  state.failed = true;
  return [errorFromText(text, AGENT)];
}
