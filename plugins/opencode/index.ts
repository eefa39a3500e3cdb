import { classifyStderr, classifyText, defineAdapter, defineLinesProtocol, flag } from "../../src/plugin.ts";
import { AGENT, createState, finish, parse } from "./parse.ts";

/**
 * `opencode run --format json` with the prompt on stdin: an argv message is re-quoted by opencode
 * (`run "Say hi"` reaches the model as `"Say hi"`), stdin arrives verbatim. `--thinking` adds the
 * reasoning records; `--print-logs --log-level ERROR` puts the cause of an `UnknownError` (e.g.
 * `ProviderModelNotFoundError`) on stderr, where `classify` finds it.
 *
 * Permissions: `--agent plan` denies edits; its bash stays allowed, so read-only also denies edit
 * and bash through OPENCODE_PERMISSION (merged into every agent's rules, last rule wins). The
 * default agent edits inside the project; other directories are "ask", which a headless run
 * auto-rejects. Its bash and webfetch default to "allow", so edit makes them "ask" (rejected
 * headless): edit mode is file edits. `--auto` approves everything not explicitly denied: full only.
 */
const MODE_ARGS = { "read-only": ["--agent", "plan"], edit: [], full: ["--auto"] } as const;
const PERMISSION = {
  "read-only": JSON.stringify({ edit: "deny", bash: "deny" }),
  edit: JSON.stringify({ bash: "ask", webfetch: "ask" }),
} as const;

/** `opencode models` prints one `provider/model` id per line. */
export function parseModelList(output: string): string[] {
  return output
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => /^[\w.@-]+\/\S+$/.test(line));
}

export default defineAdapter({
  id: "opencode",
  ...AGENT,
  homepage: "https://opencode.ai",
  install: "npm install -g opencode-ai",
  bin: "opencode",
  fallbackBins: ["opencode-cli"],
  version: { args: ["--version"], parse: (out) => out.match(/\d+\.\d+\.\d+/)?.[0] },
  // OpenCode keeps XDG folders of its own (observed in a live run). It also installs its config
  // folder's packages with npm at start, into ~/.npm: refused that, the run still answers.
  state: [
    "{XDG_CONFIG_HOME:-.config}/opencode/", // opencode.json, the .gitignore and packages it installs there (observed)
    "{XDG_DATA_HOME:-.local/share}/opencode/", // opencode.db (sessions), log/, snapshot/ (a git dir per project), repos/ (observed)
    "{XDG_STATE_HOME:-.local/state}/opencode/", // locks/ (observed)
    "{XDG_CACHE_HOME:-.cache}/opencode/", // bin/ and provider packages (observed)
    "{OPENCODE_CONFIG_DIR}/", // a config folder of the user's own, where it installs packages too (opencode.ai/docs/config)
  ],
  detect: {
    configDir: ".config/opencode",
    npmPackage: "opencode-ai",
    timeoutMs: 15_000,
    models: { args: ["models"], parse: parseModelList },
  },
  // No static aliases: ids are `provider/model`, listed by `opencode models`.
  models: [],
  // `--variant`: "model variant (provider-specific reasoning effort, e.g., high, max, minimal)". These
  // are the names opencode's own variant tables use; each model offers a subset (`opencode models
  // --verbose`, "variants"), and a variant the model lacks is silently ignored by opencode.
  efforts: ["none", "minimal", "low", "medium", "high", "xhigh", "max"],
  // opencode reads AGENTS.md in the working directory as project rules.
  capabilities: { streaming: true, resume: true, readOnly: true, skills: "file" },
  skillTarget: "AGENTS.md",
  prompt: { via: "stdin" },
  invoke: (ctx) => ({
    argv: [
      "run",
      "--format",
      "json",
      "--thinking",
      "--print-logs",
      "--log-level",
      "ERROR",
      ...flag("--model", ctx.model),
      ...flag("--variant", ctx.effort),
      ...flag("--session", ctx.resume),
      ...MODE_ARGS[ctx.mode],
    ],
    env: ctx.mode === "full" ? undefined : { OPENCODE_PERMISSION: PERMISSION[ctx.mode] },
    stdin: ctx.prompt,
  }),
  protocol: defineLinesProtocol({ createState, parse, finish }),
  classify: ({ stderrTail }) => {
    if (/Session not found/.test(stderrTail))
      return {
        code: "INVALID_REQUEST",
        message: "OpenCode has no session with that id",
        hint: "Resume from the working directory the session started in, with an id from `opencode session list`.",
      };
    // The log line of the failure: `level=ERROR … error="ProviderModelNotFoundError: Model not found: x/y."`.
    const cause = [...stderrTail.matchAll(/ error="([^"]+)"/g)].at(-1)?.[1];
    if (cause?.startsWith("ProviderModelNotFoundError"))
      return { code: "MODEL_NOT_AVAILABLE", message: cause, hint: "Pick a `provider/model` id from `opencode models`." };
    if (cause) return classifyText(cause, AGENT);
    return classifyStderr(stderrTail, AGENT);
  },
});
