// Request helpers: safe JSON access, tool schema reading, header redaction, body reading.
import type { ToolSpec } from "./types.ts";

export type Json = Record<string, unknown>;

export function isRecord(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

export function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

export function rec(v: unknown): Json {
  return isRecord(v) ? v : {};
}

/** Property names of a JSON schema object (empty when absent). */
export function propsOf(schema: unknown): string[] {
  return Object.keys(rec(rec(schema).properties));
}

/** Build a ToolSpec when the entry has a string name. */
export function toolSpec(name: unknown, schema: unknown, freeform = false): ToolSpec | undefined {
  const n = str(name);
  return n ? { name: n, params: propsOf(schema), ...(freeform ? { freeform } : {}) } : undefined;
}

export function defined<T>(items: (T | undefined)[]): T[] {
  return items.filter((x): x is T => x !== undefined);
}

const SECRET_HEADERS = new Set(["authorization", "x-api-key", "x-goog-api-key", "api-key", "cookie", "proxy-authorization"]);

/** Header map with lower-case names; secrets keep only their scheme and length. */
export function redactHeaders(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  h.forEach((value, name) => {
    const key = name.toLowerCase();
    if (!SECRET_HEADERS.has(key)) out[key] = value;
    else out[key] = value.startsWith("Bearer ") ? `Bearer <redacted:${value.length - 7}>` : `<redacted:${value.length}>`;
  });
  return out;
}

export function redactQuery(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  params.forEach((v, k) => {
    out[k] = k === "key" ? `<redacted:${v.length}>` : v;
  });
  return out;
}

/** Read the body as JSON; returns the raw text when it is not JSON and undefined when empty. */
export async function readBody(req: Request): Promise<{ body: unknown; text: string }> {
  const text = await req.text().catch(() => "");
  if (!text) return { body: undefined, text };
  try {
    return { body: JSON.parse(text) as unknown, text };
  } catch {
    return { body: text, text };
  }
}
