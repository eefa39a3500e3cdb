import { defineAcpAgent } from "../src/plugin.ts";

/**
 * DeepSeek Reasonix (npm `reasonix`, a Go binary) over the Agent Client Protocol: `reasonix acp`.
 * Its ACP flags are `-model`, `-planner`, `-sandbox-bash`, `-sandbox-network` and
 * `-workspace-only` ("confine writes to the session cwd"), which edit mode passes. Tool approval
 * (read-only / workspace-write / danger-full-access) and plan mode are session options: read-only
 * sets `tool_approval` to "read-only" (the driver stops the run if Reasonix does not offer or
 * refuses it).
 */
export default defineAcpAgent({
  id: "reasonix",
  name: "Reasonix",
  login: "run `reasonix setup` (provider keys live in ~/.reasonix/.env)",
  homepage: "https://github.com/esengine/DeepSeek-Reasonix",
  install: "npm install -g reasonix",
  bin: "reasonix", // `reasonix --version` prints "reasonix v1.38.11".
  // Reasonix also takes config locks in /tmp/reasonix-config-locks-<hash>, whatever TMPDIR says
  // (observed), which the sandbox refuses.
  state: [
    "{REASONIX_HOME:-.reasonix}/", // config.toml, .env, sessions-v4/, stats/ (observed in a live run)
    "{REASONIX_STATE_HOME}/", // sessions, archives, memory when moved (its built-in docs: REASONIX_STATE_HOME)
    "{XDG_CACHE_HOME:-.cache}/reasonix/", // environment/, history-search/, usage-catalog/ (sqlite), workspace-leases/ (observed)
    "{REASONIX_CACHE_HOME}/", // the cache when moved (its built-in docs)
  ],
  // Its config lock, whatever $TMPDIR says: /tmp/reasonix-config-locks-<first 16 hex of sha256(uid)>/ (1.38.11,
  // observed: session/new fails "lock config edits: acquire file lock: … permission denied" without it).
  stateFor: (uid) => [`/tmp/reasonix-config-locks-${new Bun.CryptoHasher("sha256").update(String(uid)).digest("hex").slice(0, 16)}/`],
  detect: { configDir: ".reasonix", npmPackage: "reasonix" },
  // The session's `model` option lists the configured `provider/model` entries.
  // Reasonix reads AGENTS.md in the working directory (checked against the model stub).
  capabilities: { resume: true, readOnly: true, skills: "file" },
  skillTarget: "AGENTS.md",
  argv: (ctx) => ["acp", ...(ctx.mode === "full" ? [] : ["-workspace-only"])],
  // Read-only runs set Reasonix's "read-only" tool approval in the session before the prompt; od refuses to run if it is missing.
  modes: { "read-only": { configId: "tool_approval", value: "read-only" } },
});
