import { type InvokeContext, isStdio, type McpServer } from "../../src/plugin.ts";

/**
 * The run's MCP servers as Codex takes them: `-c mcp_servers.<name>.<key>=<TOML>` overrides (Codex has
 * no flag for a config file; `codex --help`: "The `value` portion is parsed as TOML"). No value that
 * may be a credential goes in argv: a stdio server's variables go in Codex's own environment and
 * `env_vars` forwards them by name; a header's value goes in a variable of its own (`OD_MCP_SECRET_…`,
 * a name Codex's default shell policy keeps from the agent's commands) that `env_http_headers` names.
 * Codex forwards a variable under its own name, so one that steers Codex itself (PATH, HOME, CODEX_*,
 * …) or that two servers set differently cannot be given that way: that server is not given, and the
 * run says why. Codex reaches remote servers over streamable HTTP only, so an SSE server is not given.
 */
export interface CodexMcp {
  argv: string[];
  env: Record<string, string>;
  notes: Array<{ label: string; detail: string }>;
}

/** Variables Codex, its shell and every process it starts read for themselves. */
const OWN =
  /^(PATH|HOME|USER|LOGNAME|SHELL|PWD|TMPDIR|TEMP|TMP|TERM|LANG|LC_\w+|TZ|CODEX_\w*|OPENAI_\w*|RUST_\w*|LD_\w+|DYLD_\w+|SSL_\w+|(HTTPS?|ALL|NO)_PROXY|OD_\w+)$/i;

export function codexMcp(ctx: Pick<InvokeContext, "mcpServers">): CodexMcp {
  const out: CodexMcp = { argv: [], env: {}, notes: [] };
  for (const [i, s] of (ctx.mcpServers ?? []).entries()) {
    const why = isStdio(s)
      ? variableProblem(s, out.env)
      : s.type === "sse"
        ? "Codex reaches MCP servers over streamable HTTP, not SSE"
        : undefined;
    if (why) {
      out.notes.push({ label: "mcp", detail: `MCP server ${s.name} was not given to Codex: ${why}` });
      continue;
    }
    const set = (key: string, value: string) => out.argv.push("-c", `mcp_servers.${s.name}.${key}=${value}`);
    if (isStdio(s)) {
      set("command", tomlString(s.command));
      set("args", `[${s.args.map(tomlString).join(",")}]`);
      for (const v of s.env) out.env[v.name] = v.value;
      if (s.env.length) set("env_vars", `[${s.env.map((v) => tomlString(v.name)).join(",")}]`);
    } else {
      set("url", tomlString(s.url));
      const names = s.headers.map((h, j) => [h.name, `OD_MCP_SECRET_${i}_${j}`] as const);
      for (const [j, [, variable]] of names.entries()) out.env[variable] = s.headers[j]!.value;
      if (names.length) set("env_http_headers", `{${names.map(([h, v]) => `${tomlString(h)}=${tomlString(v)}`).join(",")}}`);
    }
  }
  return out;
}

/** Why a stdio server's variables cannot reach it through Codex's environment, if they cannot. */
function variableProblem(s: Extract<McpServer, { command: string }>, given: Record<string, string>): string | undefined {
  const own = s.env.find((v) => OWN.test(v.name));
  if (own) return `Codex passes a server's variables through its own environment by name, and ${own.name} steers Codex itself`;
  const clash = s.env.find((v) => given[v.name] !== undefined && given[v.name] !== v.value);
  if (clash) return `another server sets ${clash.name} to another value, and Codex passes variables by name`;
  return undefined;
}

/** A TOML basic string: quotes, backslashes and control characters (DEL too) escaped, everything else as is. */
export function tomlString(value: string): string {
  let out = '"';
  for (const ch of value) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === "\\") out += `\\${ch}`;
    else if (c < 0x20 || c === 0x7f) out += `\\u${c.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}
