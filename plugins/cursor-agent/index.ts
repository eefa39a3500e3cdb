import { classifyStderr, defineAdapter, defineLinesProtocol, flag } from "../../src/plugin.ts";
import { AGENT, createState, parse } from "./parse.ts";

/**
 * Cursor Agent CLI (installed with Cursor's own script, not from npm; built from its documented
 * flags and stream, not from a run). Print mode reads the prompt from stdin when no prompt
 * argument is given (never `-`: Cursor takes it as the literal prompt). `--trust` trusts the
 * workspace, which headless runs need; builds whose `--help` lacks it do not get it.
 *
 * Permissions: read-only is ask mode (answers, no edits or commands). Edit passes nothing: Cursor's
 * own approval rules apply, and a headless run cannot approve what they ask for. `--force` runs
 * every tool call not explicitly denied: full only.
 */
const MODE_ARGS = { "read-only": ["--mode", "ask"], edit: [], full: ["--force"] } as const;

/** How Cursor's login is told (also cursor-agent-acp's): a key, else `cursor-agent status`. */
export const CURSOR_AUTH = {
  envKeys: ["CURSOR_API_KEY"],
  args: ["status"],
  classify: (output: string): "ok" | "missing" | "unknown" =>
    /not (logged in|authenticated)/i.test(output) ? "missing" : /logged in/i.test(output) ? "ok" : "unknown",
};

/** Cursor Agent's own files (also cursor-agent-acp's). */
export const CURSOR_STATE = [
  ".cursor/", // cli-config.json (rewritten on start), projects/<id>/agent-transcripts, chats/<hash>/<id>/store.db (cursor.com/docs/cli/reference/configuration; agentgrep.org/backends/cursor-cli)
  "{XDG_CONFIG_HOME:-.config}/cursor/", // prompt history, chat blobs and the login (agentgrep.org/backends/cursor-cli; agent-safehouse profiles/60-agents/cursor-agent.sb)
  "{XDG_DATA_HOME:-.local/share}/cursor-agent", // versions/<v>/ its installer and self-update keep (agent-safehouse cursor-agent.sb); only when present
];

/** `cursor-agent models` prints `id - Label` lines (headers and tips around them). */
export function parseModelLines(output: string): string[] {
  return output.split("\n").flatMap((line) => /^\s*([\w.:[\]=,-]+) - \S/.exec(line)?.[1] ?? []);
}

export default defineAdapter({
  id: "cursor-agent",
  ...AGENT,
  homepage: "https://cursor.com/cli",
  install: "curl https://cursor.com/install -fsS | bash",
  bin: "cursor-agent",
  state: CURSOR_STATE,
  detect: {
    configDir: ".cursor",
    timeoutMs: 10_000,
    help: { args: ["--help"], flags: ["--trust"] },
    auth: CURSOR_AUTH,
    models: { args: ["models"], parse: parseModelLines },
  },
  // Model ids come from `cursor-agent models`; a reasoning level is part of the id's parameter block.
  models: [],
  // No effort flag: Cursor takes effort only inside a model id's parameter block.
  // Cursor's own answer to a rate limit is its `auto` model.
  rateLimitFallbackModel: "auto",
  efforts: [],
  // Cursor reads project rules from .cursor/rules/*.mdc on its own.
  capabilities: { streaming: true, resume: true, readOnly: true, skills: "file" },
  skillTarget: ".cursor/rules/{name}.mdc",
  roleTarget: ".cursor/rules/{name}.mdc",
  prompt: { via: "stdin" },
  invoke: (ctx) => ({
    argv: [
      "--print",
      "--output-format",
      "stream-json",
      "--stream-partial-output",
      ...(ctx.flags && !ctx.flags.has("--trust") ? [] : ["--trust"]),
      ...flag("--model", ctx.model),
      ...flag("--resume", ctx.resume),
      ...MODE_ARGS[ctx.mode],
    ],
    stdin: ctx.prompt,
  }),
  protocol: defineLinesProtocol({ createState, parse }),
  // Failures end the stream early and go to stderr; Cursor's docs name "Not authenticated" errors.
  classify: ({ stderrTail }) => {
    if (/not authenticated|authentication required/i.test(stderrTail))
      return { code: "AGENT_AUTH_REQUIRED", message: "Cursor Agent is not logged in", hint: `Log in: ${AGENT.login}` };
    return classifyStderr(stderrTail, AGENT);
  },
});
