/**
 * The public plugin API (`od/plugin`): what an adapter, built-in or community, may use. A community
 * plugin imports it as `import { defineAdapter, z } from "od/plugin"` (`"od"` still answers the same
 * module at run time, for plugins written before), or takes it as the argument of a factory:
 * `export default (od: PluginApi) => od.defineAdapter({...})`. Its members are listed once, in
 * core/agents/plugin-api.ts: this module, the run-time module and the factory's argument are the same.
 *
 * @example A line-protocol adapter: the prompt on stdin, one JSON record per stdout line.
 * ```ts
 * // ~/.open-design/plugins/my-agent.ts
 * import { defineAdapter, defineLinesProtocol, flag, str } from "od/plugin";
 *
 * export default defineAdapter({
 *   id: "my-agent",
 *   name: "My Agent",
 *   install: "npm install -g my-agent",
 *   bin: "my-agent",
 *   capabilities: { streaming: true, resume: false, readOnly: false },
 *   prompt: { via: "stdin" },
 *   invoke: (ctx) => ({ argv: ["--json", ...flag("--model", ctx.model)], stdin: ctx.prompt }),
 *   protocol: defineLinesProtocol({
 *     createState: () => ({}),
 *     parse: (record: any, _state, line) =>
 *       record?.type === "text" ? [{ type: "text.delta", id: "0", text: str(record.text) ?? "" }] : [{ type: "raw", stream: "stdout", line }],
 *   }),
 * });
 * ```
 *
 * @example An ACP adapter: the preset (prompt over ACP, the `acp` driver, `--version`, stderr
 * classified, streaming and relayed approvals) plus what is the agent's own.
 * ```ts
 * // ~/.open-design/plugins/my-acp-agent.ts
 * import { defineAcpAgent } from "od/plugin";
 *
 * export default defineAcpAgent({
 *   id: "my-acp-agent",
 *   name: "My ACP Agent",
 *   login: "run `my-acp-agent login`",
 *   install: "npm install -g my-acp-agent",
 *   bin: "my-acp-agent",
 *   state: [".my-acp-agent/"], // where it keeps its config and sessions (what the sandbox lets it write)
 *   argv: ["acp"], // what starts its ACP server
 *   // The session's `mode` option per od mode; a mode the agent does not offer is refused.
 *   modes: { "read-only": "plan", edit: "default" },
 *   capabilities: { resume: true, readOnly: true },
 * });
 * ```
 */
import type * as api from "./core/agents/plugin-api.ts";

export * from "./core/agents/plugin-api.ts";

/** The API as one object: a factory plugin's argument, and the module `od/plugin` (or `od`) at run time. */
export type PluginApi = typeof api;
