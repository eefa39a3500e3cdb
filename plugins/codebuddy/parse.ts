import { arr, asRecord, errorFromText, num, type OdEventBody, str, textOf } from "../../src/plugin.ts";

/**
 * CodeBuddy Code's `-p --output-format stream-json` records (the Claude Code shape), mapped to od
 * events. Quirks seen in 2.117.0 against the model stub:
 * - with `--include-partial-messages` the answer streams as `stream_event` deltas, and the
 *   `assistant` wrappers repeat it, thinking under a different message id: once deltas were seen,
 *   wrapper text and thinking are ignored;
 * - a failed request (401, not logged in) arrives as a made-up `assistant` text ("401 Unauthorized")
 *   followed by an `is_error` result: wrapper text is held for one record and dropped before an
 *   error result, so it never shows as the agent's answer;
 * - tool results always say `is_error: false`; failures and permission refusals are texts that
 *   start with "Error:".
 */

export const AGENT = { name: "CodeBuddy Code", login: "run `codebuddy` and type /login, or set CODEBUDDY_API_KEY" };

interface Block {
  type: string;
  id?: string;
  name?: string;
  json: string;
}

export interface CodeBuddyState {
  messageId?: string;
  blocks: Map<number, Block>;
  /** Deltas were seen: wrappers only repeat them. */
  partial: boolean;
  /** Wrapper text waiting to see whether an error result follows it. */
  held: OdEventBody[];
  /** Tool calls already emitted, by id. */
  calls: Set<string>;
  n: number;
}

export const createState = (): CodeBuddyState => ({ blocks: new Map(), partial: false, held: [], calls: new Set(), n: 0 });

const DENIED = /^Error: Permission to use (\S+) has been denied/;

export function parse(record: unknown, state: CodeBuddyState, line: string): OdEventBody[] {
  const r = asRecord(record);
  if (r?.type === "result" && r.is_error === true) state.held = [];
  const held = state.held;
  state.held = [];
  return [...held, ...dispatch(r, state, line)];
}

export function finish(state: CodeBuddyState): OdEventBody[] {
  const held = state.held;
  state.held = [];
  return held;
}

function dispatch(r: Record<string, unknown> | undefined, state: CodeBuddyState, line: string): OdEventBody[] {
  switch (r?.type) {
    case "system":
      if (r.subtype === "init" && str(r.session_id)) return [{ type: "session", sessionId: str(r.session_id)!, model: str(r.model) }];
      return r.subtype === "init" || r.subtype === "status" ? [] : [{ type: "raw", stream: "stdout", line }];
    case "file-history-snapshot":
      return []; // CodeBuddy's own undo bookkeeping
    case "stream_event":
      state.partial = true;
      return streamEvent(asRecord(r.event), state);
    case "assistant":
      return assistant(asRecord(r.message), state);
    case "user":
      return arr(asRecord(r.message)?.content).flatMap((b) => toolResult(asRecord(b)));
    case "result":
      return result(r);
    case "error":
      return [sessionError(textOf(r.error) || "CodeBuddy reported an error")];
    default:
      return [{ type: "raw", stream: "stdout", line }];
  }
}

function streamEvent(e: Record<string, unknown> | undefined, state: CodeBuddyState): OdEventBody[] {
  switch (e?.type) {
    case "message_start":
      state.messageId = str(asRecord(e.message)?.id) ?? `msg-${++state.n}`;
      state.blocks.clear();
      return [];
    case "content_block_start": {
      const b = asRecord(e.content_block);
      state.blocks.set(num(e.index) ?? 0, { type: str(b?.type) ?? "", id: str(b?.id), name: str(b?.name), json: "" });
      return [];
    }
    case "content_block_delta": {
      const index = num(e.index) ?? 0;
      const d = asRecord(e.delta);
      const id = `${state.messageId ?? "msg"}:${index}`;
      if (d?.type === "text_delta" && str(d.text)) return [{ type: "text.delta", id, text: str(d.text)! }];
      if (d?.type === "thinking_delta" && str(d.thinking)) return [{ type: "thinking.delta", id, text: str(d.thinking)! }];
      const block = state.blocks.get(index);
      if (d?.type === "input_json_delta" && block) block.json += str(d.partial_json) ?? "";
      return [];
    }
    case "content_block_stop": {
      const block = state.blocks.get(num(e.index) ?? 0);
      return block?.type === "tool_use" && block.id ? toolCall(state, block.id, block.name, parseJson(block.json)) : [];
    }
    default:
      return [];
  }
}

function assistant(message: Record<string, unknown> | undefined, state: CodeBuddyState): OdEventBody[] {
  const messageId = str(message?.id) ?? `msg-${++state.n}`;
  const events = arr(message?.content).flatMap((b, i): OdEventBody[] => {
    const block = asRecord(b);
    if (block?.type === "tool_use") return toolCall(state, str(block.id) ?? "", str(block.name), block.input);
    if (state.partial) return [];
    if (block?.type === "text" && str(block.text)) return [{ type: "text.delta", id: `${messageId}:${i}`, text: str(block.text)! }];
    if (block?.type === "thinking" && str(block.thinking)) return [{ type: "thinking.delta", id: `${messageId}:${i}`, text: str(block.thinking)! }];
    return [];
  });
  // A message that calls a tool is the model's own; only a text-only one can be a made-up error.
  if (events.some((e) => e.type === "tool.call")) return events;
  state.held.push(...events);
  return [];
}

function toolResult(block: Record<string, unknown> | undefined): OdEventBody[] {
  if (block?.type !== "tool_result") return [];
  const id = str(block.tool_use_id) ?? "";
  const output = textOf(block.content);
  const denied = output.match(DENIED);
  const result: OdEventBody = { type: "tool.result", id, output, isError: block.is_error === true || output.startsWith("Error:") };
  if (!denied) return [result];
  return [
    { type: "permission.request", id, tool: denied[1]!, detail: output.split(". ")[0] },
    { type: "permission.decision", id, decision: "deny", by: "policy", reason: "CodeBuddy's permission mode refused it (no prompts in print mode)" },
    result,
  ];
}

function result(r: Record<string, unknown>): OdEventBody[] {
  const u = asRecord(r.usage);
  const events: OdEventBody[] = [
    {
      type: "usage",
      inputTokens: num(u?.input_tokens),
      outputTokens: num(u?.output_tokens),
      cacheRead: num(u?.cache_read_input_tokens),
      cacheWrite: num(u?.cache_creation_input_tokens),
      costUsd: num(r.total_cost_usd),
      source: "run",
    },
  ];
  // The exit code is 0 and `subtype` may look harmless: `is_error` is the truth.
  if (r.is_error === true) {
    const errors = arr(r.errors).filter((e): e is string => typeof e === "string");
    events.push(errorFromText(errors.join("; ") || str(r.result) || `CodeBuddy run failed: ${str(r.subtype) ?? "error"}`, AGENT));
  }
  return events;
}

function sessionError(message: string): OdEventBody {
  if (!/no conversation found/i.test(message)) return errorFromText(message, AGENT);
  return {
    type: "error",
    code: "INVALID_REQUEST",
    message,
    hint: "Resume with a session id CodeBuddy knows (same HOME), or start a new run without --resume.",
    retryable: false,
  };
}

function toolCall(state: CodeBuddyState, id: string, name: string | undefined, input: unknown): OdEventBody[] {
  if (!id || state.calls.has(id)) return [];
  state.calls.add(id);
  return [{ type: "tool.call", id, name: name ?? "tool", input: input ?? {} }];
}

function parseJson(text: string): unknown {
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    return { _partial: text };
  }
}
