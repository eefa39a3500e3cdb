import { defineAcpAgent } from "../src/plugin.ts";
import claude from "./claude/index.ts";

const CONFINED = { claudeCode: { options: { strictMcpConfig: true, settings: { disableAllHooks: true } } } };

/**
 * Claude Code through its ACP bridge (`@agentclientprotocol/claude-agent-acp`, formerly
 * `@zed-industries/claude-code-acp`): the Claude Agent SDK with Claude Code's own login, settings,
 * CLAUDE.md and .claude/skills. The bridge takes no flags besides `--cli`/`--version`; its
 * permission mode comes from Claude's settings (`permissions.defaultMode`, else "auto": Claude
 * decides, and runs shell commands unasked) and then the session's `mode` option, which od sets
 * for every mode below full: read-only "plan", edit "default" (the bridge asks before every
 * change, and od's policy allows edits inside the working directory only). The driver stops the
 * run if the bridge does not offer or refuses the mode. Whatever the bridge asks is answered by od's policy.
 */
export default defineAcpAgent({
  id: "claude-acp",
  name: "Claude Code (ACP)",
  login: "run `claude` and type /login, or set ANTHROPIC_API_KEY",
  homepage: "https://github.com/agentclientprotocol/claude-agent-acp",
  install: "npm install -g @agentclientprotocol/claude-agent-acp",
  bin: "claude-agent-acp",
  fallbackBins: ["claude-code-acp"],
  // The bridge runs Claude Code through its SDK: the same files as `claude` (observed in a live run).
  state: claude.state,
  lockedState: claude.lockedState,
  // The same keys as `claude` (the bridge runs Claude Code's SDK).
  detect: {
    configDir: ".claude",
    timeoutMs: 10_000,
    npmPackage: "@agentclientprotocol/claude-agent-acp",
    auth: { envKeys: claude.detect.auth.envKeys },
  },
  // The session lists its models (and a `model` option); od selects among those over ACP.
  capabilities: { resume: true, images: true, readOnly: true, skills: "native" },
  skillTarget: ".claude/skills",
  // The session's permission mode is set before the prompt; od refuses to run if the bridge does not offer it.
  modes: { "read-only": "plan", edit: "default" },
  // As `claude` in these modes (its CONFINED): the folder's own hooks and MCP servers do not run. The bridge
  // loads user, project and local settings, and hands `_meta.claudeCode.options` to the Claude Agent SDK.
  sessionMeta: { "read-only": CONFINED, edit: CONFINED },
});
