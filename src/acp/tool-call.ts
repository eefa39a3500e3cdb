import type { ToolCallLocation } from "@agentclientprotocol/sdk";
import type { BodyOf } from "../core/contract/events.ts";

const rec = (v: unknown): Record<string, unknown> =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const text = (v: unknown): string | undefined => (typeof v === "string" && v.length ? v : undefined);

/** "/", "C:\", "\\server\share": a path that needs no folder to mean something. */
const ABSOLUTE = /^(\/|[A-Za-z]:[\\/]|\\\\)/;

/**
 * A tool call's path as ACP wants it (absolute): as the CLI named it when absolute, else resolved
 * against the run's folder (run.started's cwd), with that folder's own separator. Without a folder
 * (a run that never started) the path stays as the CLI said it.
 */
export function absolutePath(path: string, cwd: string | undefined): string {
  if (ABSOLUTE.test(path) || !cwd) return path;
  const sep = cwd.includes("/") || !cwd.includes("\\") ? "/" : "\\";
  const rest = path.replace(/^\.[\\/]/, "");
  return rest === "." ? cwd : `${cwd.replace(/[\\/]+$/, "")}${sep}${rest}`;
}

/** The files a tool call acts on (its `paths`), as ACP locations: absolute, each once. */
export function locationsOf(call: BodyOf<"tool.call">, cwd: string | undefined): ToolCallLocation[] {
  return [...new Set((call.paths ?? []).map((p) => absolutePath(p, cwd)))].map((path) => ({ path }));
}

/**
 * "Bash: ls -la", "Write: src/a.ts": the name, and what it acts on (its command, its first path, or
 * what the input names the usual ways), cut at 80 characters.
 */
export function titleOf(call: BodyOf<"tool.call">): string {
  const r = rec(call.input);
  const what =
    text(r.command) ??
    call.paths?.[0] ??
    text(r.file_path) ??
    text(r.path) ??
    text(r.filePath) ??
    text(r.pattern) ??
    text(r.url) ??
    text(r.query);
  const full = what ? `${call.name}: ${what.replace(/\s+/g, " ")}` : call.name;
  return full.length > 80 ? `${full.slice(0, 79)}…` : full;
}
