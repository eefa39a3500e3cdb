/**
 * The run's MCP servers (contract/mcp.ts, ACP's shapes) in the shapes CLIs read from their config,
 * published in the plugin API for an adapter's `invoke`. Values are written as given: a CLI that
 * expands `$VAR` in its settings (Gemini CLI, Qwen Code) still does.
 */
import { isStdio, type McpServer } from "../contract/mcp.ts";

type Pairs = Array<{ name: string; value: string }>;

/** `[{name, value}]` as an object, as every config file takes variables and headers. */
export const pairsObject = (pairs: Pairs): Record<string, string> => Object.fromEntries(pairs.map((p) => [p.name, p.value]));

/**
 * `{name: server}` in a config file's dialect:
 * - `"claude"`: Claude Code's `.mcp.json` and `--mcp-config` (`{type: "stdio", command, args, env}`,
 *   `{type: "http" | "sse", url, headers}`);
 * - `"gemini"`: Gemini CLI's and Qwen Code's `settings.json` (`{command, args, env}`, `{httpUrl,
 *   headers}` for streamable HTTP, `{url, headers}` for SSE: the keys both read).
 */
export function mcpServersObject(servers: readonly McpServer[], dialect: "claude" | "gemini"): Record<string, Record<string, unknown>> {
  const entry = (s: McpServer): Record<string, unknown> => {
    if (isStdio(s)) {
      const stdio = { command: s.command, args: s.args, env: pairsObject(s.env) };
      return dialect === "claude" ? { type: "stdio", ...stdio } : stdio;
    }
    const headers = pairsObject(s.headers);
    if (dialect === "claude") return { type: s.type, url: s.url, headers };
    return s.type === "http" ? { httpUrl: s.url, headers } : { url: s.url, headers };
  };
  return Object.fromEntries(servers.map((s) => [s.name, entry(s)]));
}

/**
 * The run's servers as a `settings.json` of their own, for a CLI that reads one more settings file
 * from a path in an environment variable (Qwen Code's `QWEN_CODE_SYSTEM_DEFAULTS_PATH`): the lowest
 * layer of its settings, under the user's and the project's, whose `mcpServers` it merges by name.
 * The user's own files are never touched. (Gemini CLI 0.61.0 has the same variable but skips the
 * file unless root owns it and every folder above it, so it cannot take a run's own.)
 */
export function mcpSettingsFile(
  ctx: { mcpServers?: readonly McpServer[]; filesDir?: string },
  variable: string,
): { env?: Record<string, string>; files?: Record<string, string> } {
  if (!ctx.mcpServers) return {};
  const settings = { mcpServers: mcpServersObject(ctx.mcpServers, "gemini") };
  return { env: { [variable]: `${ctx.filesDir}/settings.json` }, files: { "settings.json": JSON.stringify(settings) } };
}
