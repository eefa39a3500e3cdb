import { defineAcpAgent } from "../src/plugin.ts";
import codex from "./codex/index.ts";

/**
 * Codex through its ACP bridge (`@agentclientprotocol/codex-acp`, formerly
 * `@zed-industries/codex-acp`), which runs `codex app-server` with Codex's own login and
 * config.toml. The bridge has no flags (only `login`, `cli` and `--version`); its starting mode
 * comes from INITIAL_AGENT_MODE: edit mode starts in "workspace-write" (edits inside the
 * workspace, anything else asked through od's policy), full in "agent-full-access". Read-only
 * sets the session's `mode` option to "read-only" (the driver stops the run if the bridge does
 * not offer or refuses it).
 */
const START_MODE = { "read-only": "read-only", edit: "workspace-write", full: "agent-full-access" } as const;

export default defineAcpAgent({
  id: "codex-acp",
  name: "Codex (ACP)",
  login: "run `codex login` (or set CODEX_API_KEY / OPENAI_API_KEY)",
  homepage: "https://github.com/agentclientprotocol/codex-acp",
  install: "npm install -g @agentclientprotocol/codex-acp",
  bin: "codex-acp", // `codex-acp --version` prints "@agentclientprotocol/codex-acp 2.6.0".
  // The bridge runs codex's own core: the same CODEX_HOME files as `codex` (observed in a live run).
  state: codex.state,
  lockedState: codex.lockedState,
  detect: {
    configDir: ".codex",
    timeoutMs: 10_000,
    npmPackage: "@agentclientprotocol/codex-acp",
    auth: { envKeys: ["CODEX_API_KEY", "OPENAI_API_KEY"] },
  },
  // The session's `model` option lists Codex's models (reasoning effort is a separate option).
  // Codex reads AGENTS.md in the working directory (checked against the model stub).
  // codex app-server's sandbox is Codex's bubblewrap, which cannot start inside od's (see codex/index.ts).
  capabilities: { resume: true, images: true, readOnly: true, ownSandbox: true, skills: "file" },
  skillTarget: "AGENTS.md",
  env: (ctx) => ({ INITIAL_AGENT_MODE: START_MODE[ctx.mode] }),
  // Read-only runs set codex-acp's "read-only" preset in the session before the prompt; od refuses to run if it is missing.
  modes: { "read-only": "read-only" },
});
