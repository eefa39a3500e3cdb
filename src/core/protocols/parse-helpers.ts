/** Small total functions for reading untrusted JSON records in parsers: they never throw. */

export type Rec = Record<string, unknown>;

/** A JSON object (not null, not an array), or undefined. */
export function asRecord(v: unknown): Rec | undefined {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Rec) : undefined;
}

/** A JSON object, or an empty one: for reading fields down a path (`rec(rec(data.message).usage)`). */
export function rec(v: unknown): Rec {
  return asRecord(v) ?? {};
}

export function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

/** A finite number, whatever its sign (an exit code, a status, an index); anything else is undefined. */
export function num(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

/** A finite number that can be a count (tokens, a cost): non-negative; anything else is undefined. */
export function count(v: unknown): number | undefined {
  const n = num(v);
  return n !== undefined && n >= 0 ? n : undefined;
}

/** JSON.parse that answers undefined instead of throwing. */
export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Where a tool input that is no JSON object is kept (JSON cut short by an output limit): its first 1,000 characters. */
export const UNPARSED = "_partial";

/**
 * A tool call's input from its streamed JSON, always an object. With no JSON, the first non-empty
 * `whole` input (the block's start, a wrapper), else `{}`; with JSON that is cut short or no
 * object, that same input, else the text under `_partial` (which od's own tools refuse).
 */
export function parseToolInput(json: string, ...whole: unknown[]): Rec {
  const known = whole.map(asRecord).find((w) => w !== undefined && Object.keys(w).length > 0);
  if (!json.trim()) return known ?? {};
  return asRecord(safeJson(json)) ?? known ?? { [UNPARSED]: json.slice(0, 1000) };
}

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/**
 * The text of a tool result or message content, whatever its shape: a string,
 * an array of `{type:"text", text}` parts (other parts summarised), or JSON.
 */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    // Per tool result and message on many parsers' paths: one pass, no lists made on the way.
    let out = "";
    for (const part of content) {
      const text = partText(part);
      if (text) out = out ? `${out}\n${text}` : text;
    }
    return out;
  }
  if (content === undefined || content === null) return "";
  const p = asRecord(content);
  if (p && typeof p.text === "string") return p.text;
  if (p && Array.isArray(p.content)) return textOf(p.content);
  return JSON.stringify(content);
}

/** One part of a content list as `textOf` reads it: a string, its `text`, `[type]`, else "" (left out). */
export function partText(part: unknown): string {
  const p = asRecord(part);
  if (!p) return typeof part === "string" ? part : "";
  if (typeof p.text === "string") return p.text;
  if (typeof p.type === "string") return `[${p.type}]`;
  return "";
}
