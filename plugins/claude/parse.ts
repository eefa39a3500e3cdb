import { arr, asRecord, errorFromText, num, type OdEventBody, str, textOf } from "../../src/plugin.ts";

/** Claude Code's `--output-format stream-json` records, mapped to od events. */

export const AGENT = { name: "Claude Code", login: "run `claude` and type /login, or set ANTHROPIC_API_KEY" };

interface Block {
  type: string;
  id?: string;
  name?: string;
  json: string;
}

export interface ClaudeState {
  /** The message currently streaming (stream_event) and its open content blocks. */
  messageId?: string;
  blocks: Map<number, Block>;
  /** Messages whose text/thinking already streamed as deltas: their wrappers must not repeat it. */
  streamed: Set<string>;
  /** Tool calls already emitted, by id. */
  calls: Set<string>;
  /** Synthetic message counter for records without ids. */
  n: number;
}

export const createState = (): ClaudeState => ({ blocks: new Map(), streamed: new Set(), calls: new Set(), n: 0 });

export function parse(record: unknown, state: ClaudeState, line: string): OdEventBody[] {
  const events = parseRecord(record, state, line);
  // A sub-agent's records (Claude's Task tool) carry the id of the tool call they run under.
  const parent = str(asRecord(record)?.parent_tool_use_id);
  return parent ? events.map((e) => (SUBTASK_TYPES.has(e.type) ? ({ ...e, parent } as OdEventBody) : e)) : events;
}

const SUBTASK_TYPES = new Set(["text.delta", "thinking.delta", "tool.call", "tool.result"]);

function parseRecord(record: unknown, state: ClaudeState, line: string): OdEventBody[] {
  const r = asRecord(record);
  switch (r?.type) {
    case "system":
      return system(r, line);
    case "stream_event":
      return streamEvent(asRecord(r.event), state);
    case "assistant":
      return assistant(r, state);
    case "user":
      return arr(asRecord(r.message)?.content).flatMap((b) => {
        const block = asRecord(b);
        if (block?.type !== "tool_result") return [];
        return [{ type: "tool.result" as const, id: str(block.tool_use_id) ?? "", output: textOf(block.content), isError: block.is_error === true }];
      });
    case "result":
      return result(r);
    default:
      return [{ type: "raw", stream: "stdout", line }];
  }
}

function system(r: Record<string, unknown>, line: string): OdEventBody[] {
  switch (r.subtype) {
    case "init":
      return str(r.session_id) ? [{ type: "session", sessionId: str(r.session_id)!, model: str(r.model) }] : [];
    case "status":
      return str(r.status) ? [{ type: "status", label: str(r.status)! }] : [];
    case "permission_denied": {
      // Claude's own permission mode refused a tool: the request and its denial, as od events.
      const id = str(r.tool_use_id) ?? `perm-${str(r.uuid) ?? ""}`;
      const reason = str(r.message);
      return [
        { type: "permission.request", id, tool: str(r.tool_name) ?? "tool", detail: reason },
        { type: "permission.decision", id, decision: "deny", by: "policy", reason },
      ];
    }
    case "thinking_tokens":
      return []; // a running estimate while thinking streams; the deltas carry the content
    case "api_retry": {
      const status = num(r.error_status);
      // A rejected key never heals by retrying; claude would back off for minutes.
      if (status === 401 || r.error === "authentication_failed")
        return [errorFromText(`The Anthropic API rejected the credentials (HTTP 401, ${str(r.error) ?? "authentication failed"})`, AGENT)];
      return [{ type: "status", label: "retrying", detail: `attempt ${num(r.attempt) ?? "?"}/${num(r.max_retries) ?? "?"}${status ? ` after HTTP ${status}` : ""}` }];
    }
    default:
      return [{ type: "raw", stream: "stdout", line }];
  }
}

function streamEvent(e: Record<string, unknown> | undefined, state: ClaudeState): OdEventBody[] {
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
      if (d?.type === "text_delta" && str(d.text)) return markStreamed(state, [{ type: "text.delta", id, text: str(d.text)! }]);
      if (d?.type === "thinking_delta" && str(d.thinking)) return markStreamed(state, [{ type: "thinking.delta", id, text: str(d.thinking)! }]);
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

function assistant(r: Record<string, unknown>, state: ClaudeState): OdEventBody[] {
  // A synthetic message (auth failure, API error) repeats what `result` reports as an error.
  if (r.error !== undefined) return [];
  const message = asRecord(r.message);
  const messageId = str(message?.id) ?? `msg-${++state.n}`;
  const streamed = state.streamed.has(messageId);
  return arr(message?.content).flatMap((b, i): OdEventBody[] => {
    const block = asRecord(b);
    if (block?.type === "tool_use") {
      const fromDeltas = [...state.blocks.values()].find((x) => x.id === block.id && x.json);
      return toolCall(state, str(block.id) ?? "", str(block.name), fromDeltas ? parseJson(fromDeltas.json) : block.input);
    }
    if (streamed) return [];
    if (block?.type === "text" && str(block.text)) return [{ type: "text.delta", id: `${messageId}:${i}`, text: str(block.text)! }];
    if (block?.type === "thinking" && str(block.thinking)) return [{ type: "thinking.delta", id: `${messageId}:${i}`, text: str(block.thinking)! }];
    return [];
  });
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
  // `subtype` says "success" even for auth failures: `is_error` is the truth.
  if (r.is_error === true) {
    const errors = arr(r.errors).filter((e): e is string => typeof e === "string");
    const status = num(r.api_error_status);
    const text = errors.join("; ") || str(r.result) || `Claude run failed: ${str(r.subtype) ?? "error"}`;
    events.push(errorFromText(status && !text.includes(String(status)) ? `${status} ${text}` : text, AGENT));
  }
  return events;
}

function toolCall(state: ClaudeState, id: string, name: string | undefined, input: unknown): OdEventBody[] {
  if (!id || state.calls.has(id)) return [];
  state.calls.add(id);
  return [{ type: "tool.call", id, name: name ?? "tool", input: input ?? {} }];
}

function markStreamed(state: ClaudeState, events: OdEventBody[]): OdEventBody[] {
  if (state.messageId) state.streamed.add(state.messageId);
  return events;
}

function parseJson(text: string): unknown {
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    return { _partial: text };
  }
}
