import { asRecord, errorFromText, num, type OdEventBody, str, textOf, todosAt, toolCallEvents, toolTable } from "../../src/plugin.ts";

/**
 * Letta Code's `letta -p --output-format stream-json` records, one JSON object a line (shaped from
 * src/types/protocol.ts and src/headless.ts of github.com/letta-ai/letta-code, not captured):
 * `system`/`init` (session_id = the agent id, agent_id, conversation_id, model), `message` (a Letta
 * API streaming chunk: `message_type` assistant_message with `content`, reasoning_message with
 * `reasoning`, tool_call_message with `tool_call` {name, arguments, tool_call_id},
 * tool_return_message with `tool_return`, `status` and `tool_call_id`; assistant and reasoning
 * chunks are pieces of one message under one `id`), `error` (message, stop_reason, api_error),
 * `recovery` (a stale approval auto-denied and retried) and a closing `result` (subtype success or
 * error, `result` text, usage with prompt_tokens and completion_tokens).
 */

export const AGENT = {
  name: "Letta Code",
  login: "set LETTA_API_KEY (headless mode needs it for Letta Cloud: app.letta.com/api-keys), or point LETTA_BASE_URL at your Letta server",
};

type Rec = Record<string, unknown>;

/**
 * Letta Code's tools: Claude Code's names by default, and those of its Codex-like toolset (shell,
 * apply_patch, update_plan, …): kind, the arguments naming files, the todo list or plan.
 */
export const lettaTools = toolTable({
  Read: { kind: "read", paths: ["file_path"] },
  read_file: { kind: "read", paths: ["file_path", "path"] },
  Write: { kind: "edit", paths: ["file_path"] },
  Edit: { kind: "edit", paths: ["file_path"] },
  MultiEdit: { kind: "edit", paths: ["file_path"] },
  apply_patch: { kind: "edit" },
  Bash: { kind: "execute" },
  BashOutput: { kind: "execute" },
  KillBash: { kind: "execute" },
  shell: { kind: "execute" },
  shell_command: { kind: "execute" },
  Grep: { kind: "search", paths: ["path"] },
  grep_files: { kind: "search", paths: ["path"] },
  Glob: { kind: "search", paths: ["path"] },
  LS: { kind: "search", paths: ["path"] },
  list_dir: { kind: "search", paths: ["dir_path", "path"] },
  WebFetch: { kind: "fetch" },
  WebSearch: { kind: "fetch" },
  web_search: { kind: "fetch" },
  Task: { kind: "think" },
  TodoWrite: { kind: "think", plan: todosAt() },
  update_plan: { kind: "think", plan: todosAt("plan") },
});

export interface LettaState {
  /** Assistant text already streamed: the closing `result` repeats it. */
  answered: boolean;
  /** An error was reported: the closing error `result` adds nothing. */
  failed: boolean;
  n: number;
}

export const createState = (): LettaState => ({ answered: false, failed: false, n: 0 });

export const MISSING_KEY = /Missing LETTA_API_KEY|requires an API key set via the LETTA_API_KEY/i;

export function parse(record: unknown, state: LettaState, line: string): OdEventBody[] {
  const r = asRecord(record);
  switch (r?.type) {
    case "system": {
      const sessionId = str(r.conversation_id) ?? str(r.session_id);
      return r.subtype === "init" && sessionId ? [{ type: "session", sessionId, model: str(r.model) || undefined }] : [];
    }
    case "message":
      return message(r, state, line);
    case "error":
      return error(str(r.message) ?? str(asRecord(r.api_error)?.message), state);
    case "recovery":
      return [{ type: "status", label: "recovery", detail: str(r.message) }];
    case "result":
      return result(r, state);
    default:
      return [{ type: "raw", stream: "stdout", line }];
  }
}

function message(r: Rec, state: LettaState, line: string): OdEventBody[] {
  const id = str(r.id) ?? str(r.otid) ?? `m${++state.n}`;
  switch (r.message_type) {
    case "assistant_message": {
      const text = textOf(r.content);
      if (!text) return [];
      state.answered = true;
      return [{ type: "text.delta", id, text }];
    }
    case "reasoning_message": {
      const text = str(r.reasoning);
      return text ? [{ type: "thinking.delta", id: `${id}:thinking`, text }] : [];
    }
    case "tool_call_message": {
      const call = asRecord(r.tool_call) ?? asRecord((r.tool_calls as unknown[] | undefined)?.[0]);
      const callId = str(call?.tool_call_id);
      if (!call || !callId) return [];
      const name = str(call.name) ?? "tool";
      const input = jsonOr(call.arguments);
      return toolCallEvents(callId, name, input, lettaTools(name, input));
    }
    case "tool_return_message": {
      const callId = str(r.tool_call_id);
      if (!callId) return [];
      return [{ type: "tool.result", id: callId, output: textOf(r.tool_return), isError: r.status === "error" }];
    }
    // The closing `result` carries the run's usage: a step's usage_statistics would count it twice.
    case "user_message":
    case "system_message":
    case "stop_reason":
    case "usage_statistics":
      return [];
    default:
      return [{ type: "raw", stream: "stdout", line }];
  }
}

function result(r: Rec, state: LettaState): OdEventBody[] {
  const out: OdEventBody[] = [];
  if (r.subtype === "success") {
    const text = str(r.result);
    if (text && !state.answered) out.push({ type: "text.delta", id: "answer", text });
  } else if (!state.failed) {
    out.push(...error(str(r.result) ?? `Letta Code stopped: ${str(r.stop_reason) ?? "error"}`, state));
  }
  const u = asRecord(r.usage);
  return u ? [...out, ...usage(u)] : out;
}

function error(message: string | undefined, state: LettaState): OdEventBody[] {
  state.failed = true;
  const text = (message ?? "Letta Code reported an error").replace(/^Error:\s*/, "");
  if (MISSING_KEY.test(text))
    return [{ type: "error", code: "AGENT_AUTH_REQUIRED", message: text, hint: `Log in: ${AGENT.login}`, retryable: false }];
  return [errorFromText(text, AGENT)];
}

function usage(u: Rec): OdEventBody[] {
  const inputTokens = num(u.prompt_tokens);
  const outputTokens = num(u.completion_tokens);
  if (inputTokens === undefined && outputTokens === undefined) return [];
  return [{ type: "usage", source: "run", inputTokens, outputTokens }];
}

/** Tool arguments arrive as a JSON string. */
function jsonOr(value: unknown): unknown {
  if (typeof value !== "string") return value ?? {};
  try {
    return JSON.parse(value);
  } catch {
    return { arguments: value };
  }
}
