// Anthropic Messages API: POST /v1/messages (SSE or JSON) and /v1/messages/count_tokens.
import { arr, defined, isRecord, type Json, rec, str, toolSpec } from "./request.ts";
import { newId } from "./scenario.ts";
import { type Frame, hang, json, paced, streamResponse } from "./stream.ts";
import type { Reply, StreamCtx, Turn } from "./types.ts";

function blockText(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  const texts = defined(arr(content).map((b) => (rec(b).type === "text" ? str(rec(b).text) : undefined)));
  const real = texts.filter((t) => !t.trimStart().startsWith("<system-reminder>"));
  return real.at(-1) ?? texts.at(-1);
}

export function parse(body: unknown): Turn {
  const b = rec(body);
  const messages = arr(b.messages).filter(isRecord);
  const last = messages.at(-1);
  const hasToolResult = last?.role === "user" && arr(last.content).some((c) => rec(c).type === "tool_result");
  let lastUserText: string | undefined;
  for (const m of [...messages].reverse()) {
    if (m.role !== "user") continue;
    lastUserText = blockText(m.content);
    if (lastUserText !== undefined) break;
  }
  return {
    model: str(b.model),
    stream: b.stream === true,
    assistantTurns: messages.filter((m) => m.role === "assistant").length,
    lastUserText,
    tools: defined(arr(b.tools).map((t) => toolSpec(rec(t).name, rec(t).input_schema))),
    hasToolResult,
    effort: str(rec(b.output_config).effort),
    thinking: b.thinking,
  };
}

export function countTokens(body: unknown): Response {
  return json({ input_tokens: Math.max(1, Math.ceil(JSON.stringify(body ?? "").length / 4)) });
}

/** Anthropic's 401 for a rejected key (docs.claude.com/en/api/errors): "invalid x-api-key". */
export function authError(message = "invalid x-api-key"): Response {
  return json({ type: "error", error: { type: "authentication_error", message }, request_id: newId("req_stub_") }, 401);
}

const SIGNATURE = "c3R1Yi1zaWduYXR1cmUtbm90LXJlYWw="; // base64("stub-signature-not-real")

function message(turn: Turn, content: Json[], stopReason: string | null, outTokens: number): Json {
  return {
    id: newId("msg_stub_"),
    type: "message",
    role: "assistant",
    model: turn.model ?? "stub-model",
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: 12, output_tokens: outTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  };
}

/** Content blocks for the final (non-streaming) message. */
function fullContent(reply: Exclude<Reply, { kind: "stall" | "auth-error" }>): Json[] {
  if (reply.kind === "tool")
    return [reply, ...(reply.more ?? [])].map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: c.args }));
  const out: Json[] = [];
  if (reply.thinking.length) out.push({ type: "thinking", thinking: reply.thinking.join(""), signature: SIGNATURE });
  out.push({ type: "text", text: reply.chunks.join("") });
  return out;
}

function ev(type: string, data: Json): Frame {
  return { event: type, data: { type, ...data } };
}

function block(index: number, start: Json, deltas: Json[], delayMs = 0): Frame[] {
  return [
    ev("content_block_start", { index, content_block: start }),
    ...paced(
      deltas.map((delta) => ev("content_block_delta", { index, delta })),
      delayMs,
    ),
    ev("content_block_stop", { index }),
  ];
}

function blocks(reply: Exclude<Reply, { kind: "stall" | "auth-error" }>): Frame[] {
  if (reply.kind === "tool") {
    return [reply, ...(reply.more ?? [])].flatMap((call, index) => {
      const input = JSON.stringify(call.args);
      const half = Math.ceil(input.length / 2);
      const parts = [input.slice(0, half), input.slice(half)].map((p) => ({ type: "input_json_delta", partial_json: p }));
      return block(index, { type: "tool_use", id: call.id, name: call.name, input: {} }, parts);
    });
  }
  const out: Frame[] = [];
  let index = 0;
  if (reply.thinking.length) {
    const deltas: Json[] = reply.thinking.map((t) => ({ type: "thinking_delta", thinking: t }));
    deltas.push({ type: "signature_delta", signature: SIGNATURE });
    out.push(...block(index++, { type: "thinking", thinking: "", signature: "" }, deltas));
  }
  const text = reply.chunks.map((t) => ({ type: "text_delta", text: t }));
  out.push(...block(index, { type: "text", text: "" }, text, reply.delayMs));
  return out;
}

export function render(reply: Reply, turn: Turn, ctx: StreamCtx): Response | Promise<Response> {
  if (reply.kind === "auth-error") return authError(reply.message);
  if (reply.kind === "stall" && !turn.stream) return hang(ctx);
  const start = ev("message_start", { message: message(turn, [], null, 1) });
  if (reply.kind === "stall") return streamResponse([start, ev("ping", {}), { stall: true }], ctx);
  const stopReason = reply.kind === "tool" ? "tool_use" : "end_turn";
  const outTokens = reply.kind === "tool" ? 20 : reply.chunks.length + reply.thinking.length;
  if (!turn.stream) return json(message(turn, fullContent(reply), stopReason, outTokens));
  return streamResponse(
    [
      start,
      ev("ping", {}),
      ...blocks(reply),
      ev("message_delta", { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: outTokens } }),
      ev("message_stop", {}),
    ],
    ctx,
  );
}
