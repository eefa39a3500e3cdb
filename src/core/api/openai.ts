import { OdError } from "../contract/errors.ts";
import { errorFromText } from "../protocols/classify-text.ts";
import { count, parseToolInput, rec, safeJson } from "../protocols/parse-helpers.ts";
import type { Block, Message } from "./conversation.ts";
import { postWithRetry } from "./http.ts";
import { readSse } from "./sse.ts";
import { toolCallEvent } from "./tools.ts";
import type { Client, TurnResult } from "./types.ts";

interface Call {
  id: string;
  name: string;
  args: string;
}

/**
 * OpenAI Chat Completions, streaming (POST {base}/chat/completions): OpenAI,
 * OpenRouter, Ollama, LM Studio, vLLM and the like. Reasoning streamed as
 * `reasoning_content` (DeepSeek, vLLM, LM Studio) or `reasoning` (OpenRouter,
 * Ollama) becomes thinking; a `cost` in the usage (OpenRouter) becomes costUsd.
 */
export const openaiClient: Client = async function* (req, { config, signal, note }) {
  const url = `${config.baseUrl}/chat/completions`;
  const body = {
    model: req.model,
    messages: [{ role: "system", content: req.system }, ...toWire(req.messages)],
    tools: req.tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.schema } })),
    stream: true,
    stream_options: { include_usage: true },
  };
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (config.key) headers.authorization = `Bearer ${config.key}`;
  const authHint = `Set OPENAI_API_KEY (or OD_API_KEY) to a valid key for ${config.baseUrl}.`;
  const res = yield* postWithRetry({ provider: "openai", url, headers, body, signal, authHint, note });

  const result: TurnResult = { content: [], usage: {} };
  let text = "";
  let thinking = "";
  const calls = new Map<number, Call>();
  let finished = false;
  for await (const ev of readSse(res.body!)) {
    if (ev.data.trim() === "[DONE]") {
      finished = true;
      break;
    }
    const chunk = rec(safeJson(ev.data));
    if (chunk.error !== undefined) {
      const e = rec(chunk.error);
      const err = errorFromText(String(e.message ?? JSON.stringify(chunk.error)), { name: "openai" });
      throw new OdError(err.code, `openai stream error: ${err.message}`, err.hint);
    }
    const u = rec(chunk.usage);
    if (Object.keys(u).length) {
      result.usage = {
        inputTokens: count(u.prompt_tokens),
        outputTokens: count(u.completion_tokens),
        cacheRead: count(rec(u.prompt_tokens_details).cached_tokens),
        reasoningTokens: count(rec(u.completion_tokens_details).reasoning_tokens),
        costUsd: count(u.cost),
      };
    }
    const choice = rec(Array.isArray(chunk.choices) ? chunk.choices[0] : undefined);
    const delta = rec(choice.delta);
    const reasoning =
      typeof delta.reasoning_content === "string" ? delta.reasoning_content : typeof delta.reasoning === "string" ? delta.reasoning : "";
    if (reasoning) {
      thinking += reasoning;
      yield { type: "thinking.delta", id: `t${req.turn}.thinking`, text: reasoning };
    }
    if (typeof delta.content === "string" && delta.content) {
      text += delta.content;
      yield { type: "text.delta", id: `t${req.turn}.text`, text: delta.content };
    }
    const toolCalls = Array.isArray(delta.tool_calls) ? delta.tool_calls : [];
    toolCalls.forEach((raw, i) => {
      const tc = rec(raw);
      const fn = rec(tc.function);
      const index = typeof tc.index === "number" ? tc.index : i;
      const call = calls.get(index) ?? { id: "", name: "", args: "" };
      if (typeof tc.id === "string" && tc.id && !call.id) call.id = tc.id;
      if (typeof fn.name === "string" && !call.name) call.name = fn.name;
      if (typeof fn.arguments === "string") call.args += fn.arguments;
      calls.set(index, call);
    });
    if (typeof choice.finish_reason === "string") {
      result.stopReason = choice.finish_reason;
      finished = true;
    }
  }
  if (!finished)
    throw new OdError("AGENT_ERROR", "The openai stream ended before the answer was complete", "The connection dropped; try again.");
  if (thinking) result.content.push({ type: "thinking", text: thinking });
  if (text) result.content.push({ type: "text", text });
  const seen = new Set<string>();
  for (const [index, call] of [...calls.entries()].sort(([a], [b]) => a - b)) {
    // Some servers send no id, or the same one twice: every call needs its own to be answered.
    const id = call.id && !seen.has(call.id) ? call.id : `call_${req.turn}_${index}`;
    seen.add(id);
    const input = parseToolInput(call.args);
    result.content.push({ type: "tool_use", id, name: call.name, input });
    yield toolCallEvent(id, call.name, input);
  }
  note(`openai ${req.model}: finish_reason ${result.stopReason ?? "?"}, ${text.length} chars of text, ${calls.size} tool call(s)`);
  return result;
};

/** Neutral messages to Chat Completions': tool results become `tool` messages right after the call, before any user text. */
export function toWire(messages: Message[]): unknown[] {
  const out: unknown[] = [];
  for (const m of messages) {
    const text = m.content.flatMap((b) => (b.type === "text" && b.text ? [b.text] : [])).join("\n\n");
    if (m.role === "assistant") {
      const calls = m.content.filter((b): b is Extract<Block, { type: "tool_use" }> => b.type === "tool_use");
      if (!text && !calls.length) continue;
      out.push({
        role: "assistant",
        content: text || null,
        ...(calls.length
          ? {
              tool_calls: calls.map((c) => ({
                id: c.id,
                type: "function",
                function: { name: c.name, arguments: JSON.stringify(c.input ?? {}) },
              })),
            }
          : {}),
      });
      continue;
    }
    for (const b of m.content)
      if (b.type === "tool_result") out.push({ role: "tool", tool_call_id: b.id, content: b.isError ? `Error: ${b.output}` : b.output });
    if (text) out.push({ role: "user", content: text });
  }
  return out;
}
