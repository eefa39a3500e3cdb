/**
 * What a CLI's own files say about its login, read without starting it. Only a
 * positive answer is taken: a credentials file can live elsewhere (the macOS
 * keychain, a keyring, an `apiKeyHelper`), so its absence proves nothing and
 * the CLI's own auth probe decides.
 */
import { readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { Adapter } from "../contract/adapter.ts";
import type { Env } from "../contract/request.ts";

/**
 * A path an adapter declares: relative to HOME, absolute, or led by `{VAR}` /
 * `{VAR:-fallback}` for a folder the CLI lets a variable move (`{CODEX_HOME:-.codex}/auth.json`).
 * Undefined when it names an unset variable without a fallback.
 */
export function homePath(spec: string, env: Env, home: string): string | undefined {
  const m = spec.match(/^\{(\w+)(?::-([^}]*))?\}(.*)$/);
  if (!m) return isAbsolute(spec) ? spec : join(home, spec);
  const base = env[m[1]!] || m[2];
  if (!base) return undefined;
  return join(isAbsolute(base) ? base : join(home, base), m[3]!);
}

/**
 * "ok" when one of `detect.auth.files` holds something: its `key` set (a JSON file's
 * top-level field, not empty), or without a key the file not empty (`{}` is empty).
 */
export function authFromFiles(adapter: Adapter, env: Env, home: string): "ok" | undefined {
  for (const file of adapter.detect.auth?.files ?? []) {
    const path = homePath(file.path, env, home);
    let text: string;
    try {
      if (!path) continue;
      text = readFileSync(path, "utf8");
    } catch {
      continue;
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      if (!file.key && text.trim()) return "ok"; // not JSON: a token file
      continue;
    }
    if (filled(file.key ? (data as Record<string, unknown> | null)?.[file.key] : data)) return "ok";
  }
  return undefined;
}

function filled(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  if (v && typeof v === "object") return Object.keys(v).length > 0;
  return Boolean(v);
}
