import { classifyStderr, defineAdapter, defineLinesProtocol, flag } from "../../src/plugin.ts";
import { codexMcp } from "./mcp.ts";
import { AGENT, createState, parse } from "./parse.ts";

/**
 * `codex exec --json`: one process per turn, the prompt on stdin (no positional prompt: exec reads
 * stdin to EOF), JSONL on stdout. `exec resume <id>` takes the exec options placed before it.
 * exec reports each agent message whole; `codex app-server` would stream text deltas and ask for
 * approvals, but it is a JSON-RPC session that only a driver in core/protocols could run.
 */
const SANDBOX = {
  "read-only": ["--sandbox", "read-only"],
  edit: ["--sandbox", "workspace-write"],
  full: ["--dangerously-bypass-approvals-and-sandbox"],
} as const;

/**
 * `codex debug models` prints its catalog as one JSON line of about 1 MB ({ models: [{ slug, …,
 * visibility, … }] }), and probes see stderr after it and cap the size: so read it by scanning
 * each model's fields instead of parsing the whole. Hidden models are left out.
 */
function catalog(output: string): string[] {
  return output
    .split('"slug":"')
    .slice(1)
    .flatMap((model) => (model.includes('"visibility":"hide"') ? [] : [model.slice(0, model.indexOf('"'))]));
}

export default defineAdapter({
  id: "codex",
  ...AGENT,
  homepage: "https://github.com/openai/codex",
  install: "npm install -g @openai/codex",
  bin: "codex",
  version: { args: ["--version"], parse: (out) => out.match(/\d+\.\d+\.\d+/)?.[0] },
  state: [
    "{CODEX_HOME:-.codex}/", // sessions/, *_N.sqlite, tmp/arg0 helper links, shell_snapshots/, installation_id, skills/.system (observed in a live run)
    "{CODEX_SQLITE_HOME}/", // its SQLite databases when moved out of CODEX_HOME (the codex binary reads CODEX_SQLITE_HOME)
  ],
  // Its config names commands it runs later (`notify`, MCP servers, profiles' shell settings); under od's
  // sandbox codex runs its commands unasked (ownSandbox), so read-only and edit keep it read-only.
  lockedState: ["{CODEX_HOME:-.codex}/config.toml"],
  detect: {
    configDir: ".codex",
    npmPackage: "@openai/codex",
    // `codex login status`: exit 0 "Logged in using …" / "API key configured", exit 1 "Not logged in".
    auth: {
      envKeys: ["CODEX_API_KEY"],
      // What `codex login` writes (a keyring store leaves no file: then the probe decides).
      files: [
        { path: "{CODEX_HOME:-.codex}/auth.json", key: "OPENAI_API_KEY" },
        { path: "{CODEX_HOME:-.codex}/auth.json", key: "tokens" },
      ],
      args: ["login", "status"],
      classify: (_out, code) => (code === 0 ? "ok" : code === 1 ? "missing" : "unknown"),
    },
    models: { args: ["debug", "models"], parse: catalog },
  },
  // No documented aliases: `-m` takes a catalog slug (see detect.models).
  models: [],
  // `-c model_reasoning_effort=…`: the levels the bundled catalog lists (`supported_reasoning_levels`).
  efforts: ["low", "medium", "high", "xhigh", "max", "ultra"],
  // Codex reads AGENTS.md in the working directory on its own.
  // Its own sandbox is bubblewrap (commands, and file writes through its fs helper since 0.17x), which must
  // mount and so cannot start inside od's Landlock sandbox: there, od's holds the mode (ownSandbox).
  capabilities: { streaming: true, resume: true, readOnly: true, ownSandbox: true, mcpServers: true, skills: "file" },
  skillTarget: "AGENTS.md",
  prompt: { via: "stdin" },
  invoke: (ctx) => {
    const mcp = codexMcp(ctx);
    return {
      argv: [
        "exec",
        "--json",
        "--skip-git-repo-check",
        ...flag("--model", ctx.model),
        ...(ctx.effort ? ["-c", `model_reasoning_effort="${ctx.effort}"`] : []),
        ...mcp.argv,
        ...SANDBOX[ctx.mode],
        ...(ctx.resume ? ["resume", ctx.resume] : []), // a subcommand, not a flag
      ],
      stdin: ctx.prompt,
      ...(Object.keys(mcp.env).length ? { env: mcp.env } : {}),
      ...(mcp.notes.length ? { notes: mcp.notes } : {}),
    };
  },
  protocol: defineLinesProtocol({ createState, parse }),
  classify: ({ stderrTail }) => {
    const unknown = /no rollout found for thread id \S+/i.exec(stderrTail);
    if (unknown)
      return {
        code: "INVALID_REQUEST",
        message: `Codex has no session to resume: ${unknown[0]}`,
        hint: "Resume with a thread id from a run under the same HOME (CODEX_HOME), or start a new run.",
      };
    return classifyStderr(stderrTail, AGENT);
  },
});
