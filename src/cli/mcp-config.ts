import { readFileSync } from "node:fs";
import { OdError } from "../core/contract/errors.ts";
import { built, lazySchema } from "../core/contract/lazy.ts";
import { type McpServer, McpServers } from "../core/contract/mcp.ts";
import type { Env } from "../core/contract/request.ts";
import { z } from "../core/contract/zod.ts";

/**
 * `od run --mcp-config <file>`: MCP servers in the shape Claude Code's `.mcp.json` (and most
 * editors' settings) use, `{"mcpServers": {"<name>": {command, args, env} | {type: "http" | "sse",
 * url, headers}}}`, read and turned into the run request's ACP shapes, then validated like any
 * request's (names, variables, headers: contract/mcp.ts) before any of it reaches a CLI. `${VAR}` and
 * `${VAR:-default}` in a value are read from od's environment, as Claude Code reads them.
 */
const Vars = lazySchema(() => z.record(z.string(), z.string()).default({}));
const Entry = lazySchema(() =>
  z.union([
    z.object({
      type: z.literal("stdio").optional(),
      command: z.string(),
      args: z.array(z.string()).default([]),
      env: built(Vars),
    }),
    z.object({ type: z.enum(["http", "sse"]), url: z.string(), headers: built(Vars) }),
  ]),
);
const File = lazySchema(() => z.object({ mcpServers: z.record(z.string(), built(Entry)) }));

const HINT =
  'The file holds {"mcpServers": {"<name>": {"command": "…", "args": […], "env": {…}}}} for a server od starts, or {"type": "http", "url": "…", "headers": {…}} for one it reaches.';

export function readMcpConfig(path: string, env: Env = process.env): McpServer[] {
  const bad = (why: string) => new OdError("INVALID_REQUEST", `--mcp-config ${path}: ${why}`, HINT);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new OdError(
      "INVALID_REQUEST",
      `--mcp-config ${path}: cannot read it (${(err as NodeJS.ErrnoException).code ?? err})`,
      "Check the path.",
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw bad(`not JSON (${(err as Error).message})`);
  }
  const file = File.safeParse(json);
  if (!file.success) throw bad(z.prettifyError(file.error));
  const expand = (value: string) => expandVars(value, env, bad);
  const pairs = (vars: Record<string, string>) => Object.entries(vars).map(([name, value]) => ({ name, value: expand(value) }));
  const servers = Object.entries(file.data.mcpServers).map(([name, s]) =>
    "url" in s
      ? { type: s.type, name, url: expand(s.url), headers: pairs(s.headers) }
      : { name, command: expand(s.command), args: s.args.map(expand), env: pairs(s.env) },
  );
  const valid = McpServers.safeParse(servers);
  if (!valid.success) {
    const where = (path: PropertyKey[]) => servers[Number(path[0])]?.name ?? "mcpServers";
    throw bad(valid.error.issues.map((i) => `server "${where(i.path)}": ${i.message}`).join("; "));
  }
  return valid.data;
}

/** `${VAR}` and `${VAR:-default}` from `env`; a variable that is unset and has no default is an error, not "". */
function expandVars(value: string, env: Env, bad: (why: string) => OdError): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_m, name: string, fallback?: string) => {
    const set = env[name];
    if (set !== undefined) return set;
    if (fallback !== undefined) return fallback;
    throw bad(`\${${name}} is not set in od's environment`);
  });
}
