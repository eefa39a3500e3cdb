import { defineAcpAgent, OdError } from "../src/plugin.ts";

/**
 * Devin for Terminal (Cognition's `devin`, installed by its shell script, not from npm) over the
 * Agent Client Protocol: `devin acp`, "the only argument" of Devin's own JetBrains/Zed ACP setup.
 *
 * How it is proven: from the ACP spec and Devin's documentation (docs.devin.ai: cli/reference/
 * commands, cli/reference/permissions, cli/acp/*, desktop/devin-local/modes), with the session's
 * shape (its `mode` and `model` config options, its mode ids) taken from a published capture of
 * Devin CLI 3000.11.3's `devin acp`; not run here: Devin is not on npm and needs Cognition's
 * account server. The fixtures in test/fixtures/devin are protocol-shaped, not captured (see
 * their README.md); detection and failures are tested against a fake `devin`.
 *
 * Modes. Devin's ACP session offers a `mode` option (accept-edits "Code", smart, ask, plan,
 * bypass), which od sets before the prompt and the driver fails closed when it is not offered:
 * - read-only: `ask`, which answers without changing the codebase (its write and shell tools are
 *   gone); anything it still asks goes to od's read-only policy.
 * - edit: `accept-edits`: edits inside the workspace run, and shell commands, fetches, MCP tools
 *   and writes outside the workspace become ACP permission requests that od's policy answers
 *   (edits inside the working directory only). Allow rules in Devin's own config still apply.
 * - full: `--permission-mode dangerous` (no approval prompts), and od allows whatever is asked.
 * `--respect-workspace-trust false` keeps a new directory's trust question from stalling a
 * headless run (nobody is there to answer it). Global flags go before the `acp` subcommand.
 *
 * The `acp` subcommand is what od needs (upstream verified it with 2026.5.1-1): detection scans
 * `devin acp --help` for it, and a build without it is refused before it starts, with the update
 * command (`devin update`); older versions are also reported as outdated.
 */
const UPDATE = "Update Devin for Terminal with `devin update` (or reinstall: curl -fsSL https://cli.devin.ai/install.sh | bash).";

export default defineAcpAgent({
  id: "devin",
  name: "Devin for Terminal",
  login: "run `devin auth login` (or set WINDSURF_API_KEY)",
  homepage: "https://docs.devin.ai/cli",
  install: "curl -fsSL https://cli.devin.ai/install.sh | bash (then `devin update` to update)",
  bin: "devin", // `devin --version` prints "devin 2026.5.1-1".
  state: [
    "{XDG_CONFIG_HOME:-.config}/devin/", // config.json, AGENTS.md (docs.devin.ai/cli/reference/configuration/config-file)
    "{XDG_DATA_HOME:-.local/share}/devin/", // credentials.toml (detect.auth above) and its local data
  ],
  detect: {
    configDir: ".config/devin",
    minVersion: "2026.5.1",
    help: { args: ["acp", "--help"], flags: ["acp"] },
    auth: {
      envKeys: ["WINDSURF_API_KEY"],
      // `devin auth login` stores the login here (never read, only its presence counts).
      files: [{ path: "{XDG_DATA_HOME:-.local/share}/devin/credentials.toml" }],
      // `devin auth status` exits 0 either way; its first line is "Not logged in." or "Logged in (via …)".
      args: ["auth", "status"],
      classify: (out) => (/^\s*not logged in/im.test(out) ? "missing" : /^\s*logged in/im.test(out) ? "ok" : "unknown"),
    },
  },
  // The session's `model` option lists Devin's models (swe-2-high, adaptive, …); od selects among them over ACP.
  // Devin documents `devin -r <id>` and its ACP server advertises loadSession: a session id goes back through session/load.
  capabilities: { resume: true, images: true, readOnly: true, skills: "native" },
  // Devin reads skills from .devin/skills/<name>/SKILL.md (and ~/.config/devin/skills).
  skillTarget: ".devin/skills",
  argv: (ctx) => {
    // Detection scanned `devin acp --help`: without the subcommand the help has no `acp` in it.
    if (ctx.flags && !ctx.flags.has("acp"))
      throw new OdError("AGENT_NOT_FOUND", "This build of Devin for Terminal has no `acp` subcommand, which od drives it through", UPDATE);
    return [...(ctx.mode === "full" ? ["--permission-mode", "dangerous"] : []), "--respect-workspace-trust", "false", "acp"];
  },
  modes: { "read-only": "ask", edit: "accept-edits" },
});
