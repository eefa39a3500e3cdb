import { built, lazySchema } from "./lazy.ts";
import { z } from "./zod.ts";

/**
 * MCP servers a caller hands the agent for one run, in the Agent Client Protocol's shapes (what an
 * editor sends in `session/new`): a stdio server `{name, command, args, env: [{name, value}]}`, an
 * HTTP or SSE server `{type, name, url, headers: [{name, value}]}`. Every value becomes part of a
 * CLI's config or argv, so each is held to a shape that cannot be read as something else: a name
 * is a config key (`mcp_servers.<name>.command`), a variable's name an environment key, a header's
 * name an HTTP token; no value carries NUL or a line break where that would end it early. Nothing
 * here is ever run through a shell: the CLI starts `command` with `args` itself.
 */

/** No NUL (it would cut the value short in argv, the environment and C strings); a lone surrogate cannot be written as UTF-8. */
const plain = (what: string, min = 0) =>
  z
    .string()
    .min(min, `${what} is empty`)
    .max(32_768)
    .refine((v) => !v.includes("\u0000"), `${what} must not contain NUL`)
    .refine((v) => v.isWellFormed(), `${what} must be well-formed Unicode`);

/** A server's name: a config key and a tool-name prefix (`mcp__<name>__<tool>`), never a flag. */
export const McpServerName = lazySchema(() =>
  z
    .string()
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/,
      "an MCP server's name is letters, digits, '_' and '-' (at most 64, not starting with '-' or '_')",
    ),
);

const EnvVariable = lazySchema(() =>
  z.object({
    name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, "an environment variable's name is letters, digits and '_'"),
    value: plain("an environment variable's value"),
  }),
);

const HttpHeader = lazySchema(() =>
  z.object({
    name: z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/, "an HTTP header's name is a token (RFC 9110)"),
    value: plain("an HTTP header's value").refine((v) => !/[\r\n]/.test(v), "an HTTP header's value must not contain a line break"),
  }),
);

// Each schema is built on first use (lazy.ts): a start of od that is given no MCP server builds none.
export const McpStdioServer = lazySchema(() =>
  z
    .object({
      /** ACP's stdio shape has no type; `"stdio"` (Claude's `.mcp.json`) is taken and dropped. */
      type: z.literal("stdio").optional(),
      name: built(McpServerName),
      command: plain("an MCP server's command", 1),
      args: z.array(plain("an MCP server's argument")).max(256).default([]),
      env: z.array(built(EnvVariable)).max(256).default([]),
    })
    .transform(({ type: _type, ...server }) => server),
);

const remote = <T extends "http" | "sse">(type: T) =>
  z.object({
    type: z.literal(type),
    name: built(McpServerName),
    url: z.url({ protocol: /^https?$/, error: "an MCP server's url must be an http:// or https:// URL" }).max(8192),
    headers: z.array(built(HttpHeader)).max(128).default([]),
  });
export const McpHttpServer = lazySchema(() => remote("http"));
export const McpSseServer = lazySchema(() => remote("sse"));

export const McpServer = lazySchema(() => z.discriminatedUnion("type", [built(McpHttpServer), built(McpSseServer), built(McpStdioServer)]));
export type McpServer = z.output<typeof McpServer>;
export type McpStdioServer = z.output<typeof McpStdioServer>;
export type McpRemoteServer = z.output<typeof McpHttpServer> | z.output<typeof McpSseServer>;

/** The run's servers: at most 64, each name once (it is the key every CLI files them under). */
export const McpServers = lazySchema(() =>
  z
    .array(built(McpServer))
    .max(64)
    .superRefine((servers, ctx) => {
      const seen = new Set<string>();
      for (const [i, s] of servers.entries()) {
        if (seen.has(s.name)) ctx.addIssue({ code: "custom", path: [i, "name"], message: `two MCP servers are named "${s.name}"` });
        seen.add(s.name);
      }
    }),
);

export const isStdio = (s: McpServer): s is McpStdioServer => !("type" in s);

/** The names, for messages ("a, b"). */
export const namesOf = (servers: readonly McpServer[]) => servers.map((s) => s.name).join(", ");
