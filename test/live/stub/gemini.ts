// Gemini API: POST /v1beta/models/{model}:generateContent | :streamGenerateContent[?alt=sse] | :countTokens.
import { arr, defined, isRecord, type Json, rec, str, toolSpec } from "./request.ts";
import { newId } from "./scenario.ts";
import { type Frame, hang, json, paced, streamResponse } from "./stream.ts";
import type { Reply, StreamCtx, Turn } from "./types.ts";

export type GeminiMethod = "generateContent" | "streamGenerateContent" | "countTokens";

export function parse(body: unknown, model: string, method: string): Turn {
  const b = rec(body);
  const contents = arr(b.contents).filter(isRecord);
  const parts = (c: Json | undefined): Json[] => arr(c?.parts).filter(isRecord);
  const lastUser = [...contents].reverse().find((c) => c.role !== "model" && parts(c).some((p) => str(p.text)));
  const decls = arr(b.tools).flatMap((t) => arr(rec(t).functionDeclarations));
  const thinkingConfig = rec(b.generationConfig).thinkingConfig;
  return {
    model,
    stream: method === "streamGenerateContent",
    lastUserText: defined(parts(lastUser).map((p) => str(p.text))).at(-1),
    tools: defined(decls.map((d) => toolSpec(rec(d).name, rec(d).parametersJsonSchema ?? rec(d).parameters))),
    hasToolResult: parts(contents.at(-1)).some((p) => p.functionResponse !== undefined),
    assistantTurns: contents.filter((c) => c.role === "model").length,
    structured: rec(b.generationConfig).responseMimeType === "application/json",
    effort: str(rec(thinkingConfig).thinkingLevel),
    thinking: thinkingConfig,
  };
}

export function authError(): Response {
  const details = [
    {
      "@type": "type.googleapis.com/google.rpc.ErrorInfo",
      reason: "API_KEY_INVALID",
      domain: "googleapis.com",
      metadata: { service: "generativelanguage.googleapis.com" },
    },
  ];
  const message = "API key not valid. Please pass a valid API key.";
  return json({ error: { code: 400, message, status: "INVALID_ARGUMENT", details } }, 400);
}

export function countTokens(body: unknown): Response {
  return json({ totalTokens: Math.max(1, Math.ceil(JSON.stringify(body ?? "").length / 4)) });
}

/** A minimal value that satisfies a JSON schema (for JSON-mode side calls such as gemini's router). */
function sample(schema: unknown): unknown {
  const s = rec(schema);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  if (type === "object" || isRecord(s.properties)) {
    return Object.fromEntries(Object.entries(rec(s.properties)).map(([k, v]) => [k, sample(v)]));
  }
  if (type === "array") return [];
  if (type === "number" || type === "integer") return typeof s.minimum === "number" ? s.minimum : 1;
  if (type === "boolean") return false;
  return "stub";
}

/** In JSON mode (responseMimeType application/json, no tools) answer an object built from the schema. */
export function jsonModeText(body: unknown): string | undefined {
  const g = rec(rec(body).generationConfig);
  if (g.responseMimeType !== "application/json" || arr(rec(body).tools).length) return undefined;
  return JSON.stringify(sample(g.responseJsonSchema ?? g.responseSchema));
}

export function render(reply: Reply, turn: Turn, ctx: StreamCtx, sse: boolean): Response | Promise<Response> {
  if (reply.kind === "auth-error") return authError();
  if (reply.kind === "stall" && !turn.stream) return hang(ctx);
  const responseId = newId("stub-");
  const modelVersion = turn.model ?? "stub-model";
  const chunk = (parts: Json[], finishReason?: string, outTokens = 0): { data: Json } => {
    const candidate: Json = { content: { role: "model", parts }, index: 0 };
    const data: Json = { candidates: [{ ...candidate, ...(finishReason ? { finishReason } : {}) }], modelVersion, responseId };
    if (finishReason) data.usageMetadata = { promptTokenCount: 12, candidatesTokenCount: outTokens, totalTokenCount: 12 + outTokens };
    return { data };
  };
  const format = sse ? "sse" : "json-array";
  if (reply.kind === "stall") return streamResponse([chunk([{ text: "" }]), { stall: true }], ctx, format);

  const frames: Frame[] = [];
  let all: Json[] = [];
  if (reply.kind === "tool") {
    all = [{ functionCall: { id: reply.id, name: reply.name, args: reply.args } }];
    frames.push(chunk(all, "STOP", 20));
  } else {
    const thoughts = reply.thinking.map((text) => ({ text, thought: true }));
    const texts = reply.chunks.map((text) => ({ text }));
    all = [...(thoughts.length ? [{ text: reply.thinking.join(""), thought: true }] : []), { text: reply.chunks.join("") }];
    frames.push(...thoughts.map((p) => chunk([p])));
    frames.push(
      ...paced(
        texts.slice(0, -1).map((p) => chunk([p])),
        reply.delayMs,
      ),
    );
    if (reply.delayMs > 0 && texts.length > 1) frames.push({ pause: reply.delayMs });
    frames.push(chunk(texts.slice(-1), "STOP", texts.length + thoughts.length));
  }
  if (!turn.stream) return json(chunk(all, "STOP", frames.length).data);
  return streamResponse(frames, ctx, format);
}
