// OpenAI Chat Completions: POST /v1/chat/completions (SSE chunks or one JSON completion).
import { arr, defined, isRecord, type Json, rec, str, toolSpec } from "./request.ts";
import { DEFAULT_AUTH_MESSAGE, newId } from "./scenario.ts";
import { type Frame, hang, json, paced, streamResponse } from "./stream.ts";
import type { Reply, StreamCtx, Turn } from "./types.ts";

function contentText(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  const texts = defined(arr(content).map((p) => (rec(p).type === "text" ? str(rec(p).text) : undefined)));
  return texts.length ? texts.join("") : undefined;
}

export function parse(body: unknown): Turn {
  const b = rec(body);
  const messages = arr(b.messages).filter(isRecord);
  const lastUser = [...messages].reverse().find((m) => m.role === "user");
  return {
    model: str(b.model),
    stream: b.stream === true,
    lastUserText: lastUser ? contentText(lastUser.content) : undefined,
    tools: defined(arr(b.tools).map((t) => toolSpec(rec(rec(t).function).name, rec(rec(t).function).parameters))),
    hasToolResult: messages.at(-1)?.role === "tool",
    assistantTurns: messages.filter((m) => m.role === "assistant").length,
    effort: str(b.reasoning_effort) ?? str(rec(b.reasoning).effort),
    reasoning: b.reasoning ?? b.reasoning_effort,
    includeUsage: rec(b.stream_options).include_usage === true,
  };
}

/** OpenAI's 401 for a rejected key, chat completions and responses alike (developers.openai.com/docs/guides/error-codes). */
export function authError(message = DEFAULT_AUTH_MESSAGE): Response {
  return json({ error: { message, type: "invalid_request_error", param: null, code: "invalid_api_key" } }, 401);
}

const USAGE = (out: number): Json => ({ prompt_tokens: 12, completion_tokens: out, total_tokens: 12 + out });

export function render(reply: Reply, turn: Turn, ctx: StreamCtx): Response | Promise<Response> {
  if (reply.kind === "auth-error") return authError(reply.message);
  if (reply.kind === "stall" && !turn.stream) return hang(ctx);
  const id = newId("chatcmpl-stub");
  const created = Math.floor(Date.now() / 1000);
  const model = turn.model ?? "stub-model";
  const chunk = (delta: Json, finish: string | null = null): Frame => ({
    data: { id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason: finish }] },
  });
  const first = chunk({ role: "assistant", content: "" });
  if (reply.kind === "stall") return streamResponse([first, { stall: true }], ctx);

  const finish = reply.kind === "tool" ? "tool_calls" : "stop";
  const outTokens = reply.kind === "tool" ? 20 : reply.chunks.length + reply.thinking.length;
  if (!turn.stream) {
    const message: Json = { role: "assistant", content: reply.kind === "text" ? reply.chunks.join("") : null };
    if (reply.kind === "text" && reply.thinking.length) message.reasoning_content = reply.thinking.join("");
    if (reply.kind === "tool") {
      message.tool_calls = [reply, ...(reply.more ?? [])].map((c) => ({
        id: c.id,
        type: "function",
        function: { name: c.name, arguments: JSON.stringify(c.args) },
      }));
    }
    const choices = [{ index: 0, message, finish_reason: finish }];
    return json({ id, object: "chat.completion", created, model, choices, usage: USAGE(outTokens) });
  }

  const frames: Frame[] = [first];
  if (reply.kind === "tool") {
    [reply, ...(reply.more ?? [])].forEach((c, index) => {
      const args = JSON.stringify(c.args);
      const half = Math.ceil(args.length / 2);
      const call = (fn: Json, extra: Json = {}): Frame => chunk({ tool_calls: [{ index, ...extra, function: fn }] });
      frames.push(call({ name: c.name, arguments: "" }, { id: c.id, type: "function" }));
      frames.push(call({ arguments: args.slice(0, half) }), call({ arguments: args.slice(half) }));
    });
  } else {
    frames.push(...reply.thinking.map((t) => chunk({ reasoning_content: t })));
    frames.push(
      ...paced(
        reply.chunks.map((t) => chunk({ content: t })),
        reply.delayMs,
      ),
    );
  }
  frames.push(chunk({}, finish));
  if (turn.includeUsage) {
    frames.push({ data: { id, object: "chat.completion.chunk", created, model, choices: [], usage: USAGE(outTokens) } });
  }
  frames.push({ data: "[DONE]" });
  return streamResponse(frames, ctx);
}
