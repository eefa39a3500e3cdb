import type { RunRequest, ValidRequest } from "./request.ts";

/** What a run request holds once checked, before planRun resolves its `cwd`. */
export type CheckedRequest = Omit<ValidRequest, "cwd"> & { cwd?: string };

/** RunRequest's fields, in its schema's order (a test holds them equal to the schema's shape). */
export const REQUEST_KEYS = [
  "agent",
  "prompt",
  "cwd",
  "mode",
  "model",
  "effort",
  "resume",
  "timeoutMs",
  "skills",
  "allowedTools",
  "maxTurns",
  "role",
  "images",
  "mcpServers",
  "on",
] as const;

const DEFAULTS: Partial<Record<string, unknown>> = { mode: "edit", skills: [], allowedTools: [], images: [], mcpServers: [] };
const MODES = new Set(["read-only", "edit", "full"]);
const text = (v: unknown): v is string => typeof v === "string" && v.length > 0;
const flag = (v: unknown): v is string => text(v) && !v.startsWith("-");
const count = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v > 0;
const texts = (v: unknown, each: (x: unknown) => boolean): v is string[] => Array.isArray(v) && v.every(each);

/**
 * The requests every surface makes, checked without zod: a plain object whose every field is
 * present with an ordinary value, or absent. What it gives is what `RunRequest.parse` gives
 * (defaults filled, unknown keys dropped); for anything else (a mistake to explain, MCP servers to
 * check) it gives undefined and the schema decides. It accepts only what the schema accepts, never
 * more (test/core/contract/request-plain.test.ts runs both on one table).
 *
 * Why: zod's module and the request's schema cost a run's start more than everything else it does
 * before spawning (a dry run's profile: 7 of 17 ms), and nearly every run asks for nothing unusual.
 */
export function plainRequest(input: RunRequest | unknown): CheckedRequest | undefined {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return undefined;
  const r = input as Record<string, unknown>;
  const absent = (k: string) => r[k] === undefined;
  if (!text(r.agent) || typeof r.prompt !== "string" || r.prompt.trim().length === 0) return undefined;
  if (!(absent("cwd") || text(r.cwd)) || !(absent("on") || text(r.on))) return undefined;
  if (!(absent("mode") || MODES.has(r.mode as string))) return undefined;
  for (const k of ["model", "effort", "resume", "role"]) if (!(absent(k) || flag(r[k]))) return undefined;
  for (const k of ["timeoutMs", "maxTurns"]) if (!(absent(k) || count(r[k]))) return undefined;
  if (!(absent("skills") || texts(r.skills, text)) || !(absent("images") || texts(r.images, text))) return undefined;
  if (!(absent("allowedTools") || texts(r.allowedTools, flag))) return undefined;
  if (!(absent("mcpServers") || (Array.isArray(r.mcpServers) && r.mcpServers.length === 0))) return undefined;
  // In the schema's order, as zod gives them: a dry run prints the request as it is.
  const out: Record<string, unknown> = {};
  for (const k of REQUEST_KEYS) {
    const v = r[k] ?? DEFAULTS[k];
    if (v !== undefined) out[k] = Array.isArray(v) ? [...v] : v;
  }
  return out as CheckedRequest;
}
