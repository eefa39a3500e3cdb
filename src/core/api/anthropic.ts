import { OdError } from "../contract/errors.ts";
import { errorFromText } from "../protocols/classify-text.ts";
import { count, parseToolInput, rec, safeJson } from "../protocols/parse-helpers.ts";
import type { Block, Message } from "./conversation.ts";
import { postWithRetry } from "./http.ts";
import { readSse } from "./sse.ts";
import { toolCallEvent } from "./tools.ts";
import type { Client, TurnResult } from "./types.ts";

/** Output tokens per response: within every current Claude model's limit. */
export const MAX_OUTPUT_TOKENS = 8192;

/** The Anthropic Messages API, streaming (POST {base}/v1/messages). */
export const anthropicClient: Client = async function* (req, { config, signal, note }) {
  const url = config.baseUrl.endsWith("/v1") ? `${config.baseUrl}/messages` : `${config.baseUrl}/v1/messages`;
  const body = {
    model: req.model,
    max_tokens: MAX_OUTPUT_TOKENS,
    system: req.system,
    messages: toWire(req.messages),
    tools: req.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.schema })),
    stream: true,
  };
  const headers = { "content-type": "application/json", "anthropic-version": "2023-06-01", "x-api-key": config.key ?? "" };
  const authHint = "Set ANTHROPIC_API_KEY (or OD_API_KEY) to a valid Anthropic API key.";
  const res = yield* postWithRetry({ provider: "anthropic", url, headers, body, signal, authHint, note });

  const blocks = new Map<number, Block & { json?: string; done?: boolean }>();
  const result: TurnResult = { content: [], usage: {} };
  let stopped = false;
  const id = (index: number) => `t${req.turn}.${index}`;
  for await (const ev of readSse(res.body!)) {
    const data = rec(safeJson(ev.data));
    const type = data.type ?? ev.event;
    if (type === "message_start") {
      const u = rec(rec(data.message).usage);
      Object.assign(result.usage, {
        inputTokens: count(u.input_tokens),
        cacheRead: count(u.cache_read_input_tokens),
        cacheWrite: count(u.cache_creation_input_tokens),
        outputTokens: count(u.output_tokens),
      });
    } else if (type === "content_block_start") {
      const index = Number(data.index);
      const b = rec(data.content_block);
      if (b.type === "text") blocks.set(index, { type: "text", text: "" });
      else if (b.type === "thinking") blocks.set(index, { type: "thinking", text: "" });
      else if (b.type === "redacted_thinking") blocks.set(index, { type: "thinking", text: "", redacted: String(b.data ?? "") });
      else if (b.type === "tool_use")
        blocks.set(index, {
          type: "tool_use",
          id: String(b.id ?? `call_${req.turn}_${index}`),
          name: String(b.name ?? ""),
          input: {},
          json: "",
        });
    } else if (type === "content_block_delta") {
      const index = Number(data.index);
      const block = blocks.get(index);
      const d = rec(data.delta);
      if (block?.type === "text" && typeof d.text === "string") {
        block.text += d.text;
        if (d.text) yield { type: "text.delta", id: id(index), text: d.text };
      } else if (block?.type === "thinking" && typeof d.thinking === "string") {
        block.text += d.thinking;
        if (d.thinking) yield { type: "thinking.delta", id: id(index), text: d.thinking };
      } else if (block?.type === "thinking" && typeof d.signature === "string") block.signature = (block.signature ?? "") + d.signature;
      else if (block?.type === "tool_use" && typeof d.partial_json === "string") block.json += d.partial_json;
    } else if (type === "content_block_stop") {
      const block = blocks.get(Number(data.index));
      if (block?.type === "tool_use" && !block.done) yield closeTool(block);
    } else if (type === "message_delta") {
      result.stopReason = typeof rec(data.delta).stop_reason === "string" ? String(rec(data.delta).stop_reason) : result.stopReason;
      const u = rec(data.usage);
      if (count(u.output_tokens) !== undefined) result.usage.outputTokens = count(u.output_tokens);
      if (count(u.input_tokens) !== undefined) result.usage.inputTokens = count(u.input_tokens);
    } else if (type === "message_stop") {
      stopped = true;
    } else if (type === "error") {
      const e = rec(data.error);
      const err = errorFromText(`${String(e.type ?? "error")}: ${String(e.message ?? ev.data)}`, { name: "anthropic" });
      throw new OdError(err.code, `anthropic stream error: ${err.message}`, err.hint);
    }
  }
  if (!stopped)
    throw new OdError("AGENT_ERROR", "The anthropic stream ended before the message was complete", "The connection dropped; try again.");
  for (const block of blocks.values()) if (block.type === "tool_use" && !block.done) yield closeTool(block);
  result.content = [...blocks.entries()].sort(([a], [b]) => a - b).map(([, b]) => strip(b));
  note(`anthropic ${req.model}: stop_reason ${result.stopReason ?? "?"}, ${result.content.length} content block(s)`);
  return result;
};

function closeTool(block: Extract<Block, { type: "tool_use" }> & { json?: string; done?: boolean }) {
  block.input = parseToolInput(block.json ?? "");
  block.done = true;
  return toolCallEvent(block.id, block.name, block.input);
}

function strip(b: Block & { json?: string; done?: boolean }): Block {
  const { json: _json, done: _done, ...block } = b;
  return block as Block;
}

/** Neutral messages to Anthropic's: consecutive same-role messages merge, empty ones go, thinking returns only when signed. */
export function toWire(messages: Message[]): Array<{ role: string; content: unknown[] }> {
  const out: Array<{ role: string; content: unknown[] }> = [];
  for (const m of messages) {
    const content = m.content.flatMap((b): unknown[] => {
      if (b.type === "text") return b.text ? [{ type: "text", text: b.text }] : [];
      if (b.type === "thinking")
        return b.redacted
          ? [{ type: "redacted_thinking", data: b.redacted }]
          : b.signature
            ? [{ type: "thinking", thinking: b.text, signature: b.signature }]
            : [];
      if (b.type === "tool_use") return [{ type: "tool_use", id: b.id, name: b.name, input: b.input }];
      return [{ type: "tool_result", tool_use_id: b.id, content: b.output, is_error: b.isError }];
    });
    if (!content.length) continue;
    const last = out.at(-1);
    if (last?.role === m.role) last.content.push(...content);
    else out.push({ role: m.role, content });
  }
  return out;
}
