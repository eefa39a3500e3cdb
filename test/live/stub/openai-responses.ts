// OpenAI Responses API: POST /v1/responses (SSE events or one JSON response).

import { authError } from "./openai-chat.ts";
import { arr, defined, isRecord, type Json, rec, str, toolSpec } from "./request.ts";
import { newId } from "./scenario.ts";
import { type Frame, hang, json, paced, streamResponse } from "./stream.ts";
import type { Reply, StreamCtx, Turn } from "./types.ts";

export { authError };

const TOOL_OUTPUTS = new Set(["function_call_output", "custom_tool_call_output"]);

function itemText(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  const texts = defined(arr(content).map((p) => str(rec(p).text)));
  return texts.at(-1);
}

export function parse(body: unknown): Turn {
  const b = rec(body);
  const input = typeof b.input === "string" ? [{ role: "user", content: b.input }] : arr(b.input).filter(isRecord);
  const lastUser = [...input].reverse().find((i) => i.role === "user");
  return {
    model: str(b.model),
    stream: b.stream === true,
    lastUserText: lastUser ? itemText(lastUser.content) : undefined,
    tools: defined(arr(b.tools).map((t) => toolSpec(rec(t).name, rec(t).parameters, rec(t).type === "custom"))),
    hasToolResult: TOOL_OUTPUTS.has(str(input.at(-1)?.type) ?? ""),
    effort: str(rec(b.reasoning).effort),
    reasoning: b.reasoning,
  };
}

type Answer = Exclude<Reply, { kind: "stall" | "auth-error" }>;

/** Final output items of the response. */
function outputItems(reply: Answer, ids: { rs: string; msg: string; fc: string }): Json[] {
  if (reply.kind === "tool" && reply.input !== undefined) {
    return [{ id: ids.fc, type: "custom_tool_call", status: "completed", call_id: reply.id, name: reply.name, input: reply.input }];
  }
  if (reply.kind === "tool") {
    const args = JSON.stringify(reply.args);
    return [{ id: ids.fc, type: "function_call", status: "completed", call_id: reply.id, name: reply.name, arguments: args }];
  }
  const items: Json[] = [];
  if (reply.thinking.length) {
    items.push({ id: ids.rs, type: "reasoning", summary: [{ type: "summary_text", text: reply.thinking.join("") }] });
  }
  const part = { type: "output_text", text: reply.chunks.join(""), annotations: [] };
  items.push({ id: ids.msg, type: "message", status: "completed", role: "assistant", content: [part] });
  return items;
}

/** Stream events for each output item, from `output_item.added` to `output_item.done`. */
function itemEvents(reply: Answer, items: Json[], ev: (type: string, d: Json) => Frame): Frame[] {
  const out: Frame[] = [];
  items.forEach((item, output_index) => {
    const item_id = str(item.id) ?? "";
    const added = item.type === "message" ? { ...item, status: "in_progress", content: [] } : item;
    if (item.type === "function_call") {
      const args = str(item.arguments) ?? "";
      const half = Math.ceil(args.length / 2);
      out.push(ev("response.output_item.added", { output_index, item: { ...item, status: "in_progress", arguments: "" } }));
      for (const delta of [args.slice(0, half), args.slice(half)]) {
        out.push(ev("response.function_call_arguments.delta", { item_id, output_index, delta }));
      }
      out.push(ev("response.function_call_arguments.done", { item_id, output_index, arguments: args }));
    } else if (item.type === "custom_tool_call") {
      const input = str(item.input) ?? "";
      out.push(ev("response.output_item.added", { output_index, item: { ...item, status: "in_progress", input: "" } }));
      out.push(ev("response.custom_tool_call_input.delta", { item_id, output_index, delta: input }));
      out.push(ev("response.custom_tool_call_input.done", { item_id, output_index, input }));
    } else if (item.type === "reasoning" && reply.kind === "text") {
      const base = { item_id, output_index, summary_index: 0 };
      const text = reply.thinking.join("");
      out.push(ev("response.output_item.added", { output_index, item: { ...item, summary: [] } }));
      out.push(ev("response.reasoning_summary_part.added", { ...base, part: { type: "summary_text", text: "" } }));
      out.push(...reply.thinking.map((delta) => ev("response.reasoning_summary_text.delta", { ...base, delta })));
      out.push(ev("response.reasoning_summary_text.done", { ...base, text }));
      out.push(ev("response.reasoning_summary_part.done", { ...base, part: { type: "summary_text", text } }));
    } else if (reply.kind === "text") {
      const base = { item_id, output_index, content_index: 0 };
      const text = reply.chunks.join("");
      out.push(ev("response.output_item.added", { output_index, item: added }));
      out.push(ev("response.content_part.added", { ...base, part: { type: "output_text", text: "", annotations: [] } }));
      const deltas = reply.chunks.map((delta) => ev("response.output_text.delta", { ...base, delta, logprobs: [] }));
      out.push(...paced(deltas, reply.delayMs));
      out.push(ev("response.output_text.done", { ...base, text, logprobs: [] }));
      out.push(ev("response.content_part.done", { ...base, part: { type: "output_text", text, annotations: [] } }));
    }
    out.push(ev("response.output_item.done", { output_index, item }));
  });
  return out;
}

export function render(reply: Reply, turn: Turn, ctx: StreamCtx): Response | Promise<Response> {
  if (reply.kind === "auth-error") return authError(reply.message);
  if (reply.kind === "stall" && !turn.stream) return hang(ctx);
  const ids = { rs: newId("rs_"), msg: newId("msg_"), fc: newId("fc_") };
  let seq = 0;
  const ev = (type: string, d: Json): Frame => ({ event: type, data: { type, sequence_number: seq++, ...d } });
  const response = (status: string, output: Json[], usage: Json | null): Json => ({
    id: `resp_stub_${ids.msg.slice(4)}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status,
    model: turn.model ?? "stub-model",
    output,
    usage,
  });
  const created = ev("response.created", { response: response("in_progress", [], null) });
  if (reply.kind === "stall") return streamResponse([created, { stall: true }], ctx);

  const items = outputItems(reply, ids);
  const reasoningTokens = reply.kind === "text" ? reply.thinking.length : 0;
  const outTokens = reply.kind === "tool" ? 20 : reply.chunks.length + reasoningTokens;
  const usage = {
    input_tokens: 12,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: outTokens,
    output_tokens_details: { reasoning_tokens: reasoningTokens },
    total_tokens: 12 + outTokens,
  };
  if (!turn.stream) return json(response("completed", items, usage));
  return streamResponse(
    [
      created,
      ev("response.in_progress", { response: response("in_progress", [], null) }),
      ...itemEvents(reply, items, ev),
      ev("response.completed", { response: response("completed", items, usage) }),
    ],
    ctx,
  );
}
