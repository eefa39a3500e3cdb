import { arr, asRecord, errorFromText, num, type OdEventBody, str, textOf } from "../../src/plugin.ts";

/**
 * Qwen Code's `--output-format stream-json --include-partial-messages` records. They look like
 * Claude Code's, but differ where it matters: one `message_start` is followed by several
 * content blocks that all reuse index 0, each closed by its own `assistant` record with a fresh
 * id; and a failed model call is assistant text `[API Error: 401 …]` (older releases exit 0 and
 * report success), so that text becomes an error, never assistant output.
 */

export const AGENT = { name: "Qwen Code", login: "run `qwen` and type /auth, or set OPENAI_API_KEY (with OPENAI_BASE_URL and OPENAI_MODEL)" };

type Rec = Record<string, unknown>;
const API_ERROR = /^\[(API Error: [\s\S]*?)\]?$/;

interface Part {
  id: string;
  type: string;
  toolId?: string;
  name?: string;
  json: string;
  /** Text already streamed for this part. */
  started?: boolean;
  /** A text part that turned out to be qwen's `[API Error: …]` notice. */
  error?: boolean;
}

export interface QwenState {
  /** Open content blocks by index (qwen reuses index 0 for every block of a message). */
  parts: Map<number, Part>;
  /** Part counter: each content block gets its own id. */
  n: number;
  /** Text or thinking streamed as deltas since the last `assistant` record, which repeats it. */
  streamed: boolean;
  /** Tool calls already emitted, by id. */
  calls: Set<string>;
  /** An error was already reported; the closing `result` repeats it. */
  failed: boolean;
}

export const createState = (): QwenState => ({ parts: new Map(), n: 0, streamed: false, calls: new Set(), failed: false });

export function parse(record: unknown, state: QwenState, line: string): OdEventBody[] {
  const r = asRecord(record);
  switch (r?.type) {
    case "system":
      if (r.subtype !== "init") return [{ type: "raw", stream: "stdout", line }];
      return str(r.session_id) ? [{ type: "session", sessionId: str(r.session_id)!, model: str(r.model) }] : [];
    case "stream_event":
      return streamEvent(asRecord(r.event), state, line);
    case "assistant":
      return assistant(asRecord(r.message), state);
    case "user":
      return arr(asRecord(r.message)?.content).flatMap((b) => {
        const block = asRecord(b);
        if (block?.type !== "tool_result") return [];
        return [{ type: "tool.result" as const, id: str(block.tool_use_id) ?? "", output: textOf(block.content), isError: block.is_error === true }];
      });
    case "result":
      return result(r, state);
    default:
      return [{ type: "raw", stream: "stdout", line }];
  }
}

function streamEvent(e: Rec | undefined, state: QwenState, line: string): OdEventBody[] {
  switch (e?.type) {
    case "content_block_start": {
      const b = asRecord(e.content_block);
      state.parts.set(num(e.index) ?? 0, { id: `p${++state.n}`, type: str(b?.type) ?? "", toolId: str(b?.id), name: str(b?.name), json: "" });
      return [];
    }
    case "content_block_delta":
      return delta(asRecord(e.delta), state.parts.get(num(e.index) ?? 0), state);
    case "content_block_stop": {
      const part = state.parts.get(num(e.index) ?? 0);
      return part?.type === "tool_use" && part.toolId ? toolCall(state, part.toolId, part.name, parseJson(part.json)) : [];
    }
    case "goal_state": {
      const goal = asRecord(asRecord(e.goal_state)?.goal);
      return goal ? [{ type: "status", label: "goal", detail: [str(goal.status), str(goal.objective)].filter(Boolean).join(": ") }] : [];
    }
    case "message_start":
    case "message_delta":
    case "message_stop":
      return [];
    default:
      return [{ type: "raw", stream: "stdout", line }];
  }
}

function delta(d: Rec | undefined, part: Part | undefined, state: QwenState): OdEventBody[] {
  if (!part) return [];
  const text = d?.type === "text_delta" ? str(d.text) : d?.type === "thinking_delta" ? str(d.thinking) : undefined;
  if (d?.type === "input_json_delta") part.json += str(d.partial_json) ?? "";
  if (!text || part.error) return [];
  state.streamed = true;
  if (d?.type === "thinking_delta") return [{ type: "thinking.delta", id: part.id, text }];
  // qwen writes its API error notice as the whole text of a block.
  if (!part.started && API_ERROR.test(text)) {
    part.error = true;
    return fail(state, text);
  }
  part.started = true;
  return [{ type: "text.delta", id: part.id, text }];
}

function assistant(message: Rec | undefined, state: QwenState): OdEventBody[] {
  const streamed = state.streamed;
  state.streamed = false;
  return arr(message?.content).flatMap((b): OdEventBody[] => {
    const block = asRecord(b);
    if (block?.type === "tool_use") return toolCall(state, str(block.id) ?? "", str(block.name), block.input);
    if (streamed) return [];
    const text = str(block?.text);
    if (block?.type === "text" && text) return API_ERROR.test(text) ? fail(state, text) : [{ type: "text.delta", id: `p${++state.n}`, text }];
    if (block?.type === "thinking" && str(block.thinking)) return [{ type: "thinking.delta", id: `p${++state.n}`, text: str(block.thinking)! }];
    return [];
  });
}

function result(r: Rec, state: QwenState): OdEventBody[] {
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
  const text = str(asRecord(r.error)?.message) ?? str(r.result) ?? "";
  if (r.is_error === true || API_ERROR.test(text)) events.push(...fail(state, text || `Qwen Code run failed: ${str(r.subtype) ?? "error"}`));
  return events;
}

function fail(state: QwenState, text: string): OdEventBody[] {
  if (state.failed) return [];
  state.failed = true;
  return [errorFromText(API_ERROR.exec(text)?.[1] ?? text, AGENT)];
}

function toolCall(state: QwenState, id: string, name: string | undefined, input: unknown): OdEventBody[] {
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
