/**
 * What a CLI's own files say about its login, read without starting it. Only a
 * positive answer is taken: a credentials file can live elsewhere (the macOS
 * keychain, a keyring, an `apiKeyHelper`), so its absence proves nothing and
 * the CLI's own auth probe decides.
 */
import { readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { Adapter, AuthState } from "../contract/adapter.ts";
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
 * The login as the environment and the CLI's files tell it, without starting anything:
 * "ok" when one shows a login; "missing" when none does and the adapter declares them
 * the only places (`auth.complete`); undefined when only the CLI's own probe can tell.
 */
export function authOnDisk(adapter: Adapter, env: Env, home: string): AuthState | undefined {
  const auth = adapter.detect.auth;
  if (!auth) return undefined;
  if (auth.envKeys.some((k) => envShows(k, env))) return "ok";
  if (authFromFiles(adapter, env, home)) return "ok";
  return auth.complete ? "missing" : undefined;
}

/** `NAME`: set and not empty; `NAME=value`: set to that value. */
export function envShows(key: string, env: Env): boolean {
  const eq = key.indexOf("=");
  if (eq < 0) return Boolean(env[key]);
  return env[key.slice(0, eq)] === key.slice(eq + 1);
}

/**
 * "ok" when one of `detect.auth.files` holds something: its `key` set (a JSON file's
 * field, `a.b` for a nested one, not empty), or without a key the file not empty (`{}` is empty).
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
    if (filled(file.key ? field(data, file.key) : data)) return "ok";
  }
  return undefined;
}

function field(data: unknown, key: string): unknown {
  let v = data;
  for (const part of key.split(".")) v = v && typeof v === "object" ? (v as Record<string, unknown>)[part] : undefined;
  return v;
}

function filled(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  if (v && typeof v === "object") return Object.keys(v).length > 0;
  return Boolean(v);
}
