import { defineAcpAgent } from "../src/plugin.ts";

/**
 * Kilo (`@kilocode/cli`, an OpenCode fork) over the Agent Client Protocol: `kilo acp`. Its ACP
 * server takes no mode flag (`kilo acp --help`: only server, log and `--cwd` options), so the
 * permission rules come through KILO_PERMISSION, which Kilo merges over its config: in edit mode
 * every edit and command becomes an ACP permission request that od's policy answers (edits inside
 * the working directory only). Read-only sets the session's `mode` option to "ask" (the driver
 * stops the run if Kilo does not offer or refuses it).
 */
const ASK_FIRST = JSON.stringify({ edit: "ask", bash: "ask" });

export default defineAcpAgent({
  id: "kilo",
  name: "Kilo",
  login: "run `kilo auth login` (or configure a provider in ~/.config/kilo/kilo.json)",
  homepage: "https://kilo.ai",
  install: "npm install -g @kilocode/cli",
  bin: "kilo", // `kilo --version` prints the bare version ("7.7.7").
  fallbackBins: ["kilocode"],
  // Kilo is an OpenCode fork with its own XDG folders (observed in a live run).
  state: [
    "{XDG_CONFIG_HOME:-.config}/kilo/", // kilo.json, .gitignore, migration markers (observed)
    "{XDG_DATA_HOME:-.local/share}/kilo/", // kilo.db (sessions), log/, storage/, telemetry-id (observed)
    "{XDG_STATE_HOME:-.local/state}/kilo/", // locks/ and its write probe (observed)
    "{XDG_STATE_HOME:-.local/state}/kilo-sandbox-policy/", // the policy of its own bash sandbox (observed)
    "{XDG_CACHE_HOME:-.cache}/kilo/", // bin/ (observed)
    "{KILO_CONFIG_DIR}/", // a config folder of the user's own, where it installs packages as OpenCode does (in its binary)
  ],
  detect: { configDir: ".config/kilo", timeoutMs: 15_000, npmPackage: "@kilocode/cli" },
  // Over ACP the model is the session's `model` option (`provider/model` ids Kilo lists there).
  // Kilo reads AGENTS.md in the working directory (checked against the model stub).
  capabilities: { resume: true, images: true, readOnly: true, skills: "file" },
  skillTarget: "AGENTS.md",
  argv: ["acp"],
  env: (ctx) => (ctx.mode === "full" ? undefined : { KILO_PERMISSION: ASK_FIRST }),
  // Read-only runs set Kilo's "ask" mode (answers without changing the codebase) in the session before the prompt; od refuses to run if it is missing.
  modes: { "read-only": "ask" },
});
