import { defineAcpAgent } from "../src/plugin.ts";

/**
 * Poolside's coding agent (`pool`, a binary distribution, not from npm) over the Agent Client
 * Protocol: `pool acp` (acpx's registry; the ACP registry's listing: "Start Poolside with:
 * ./pool-<platform> acp").
 *
 * How it is proven: from the ACP spec and the ACP registry's listing; not run here: Poolside is
 * not on npm and needs Poolside's service. The fixtures in test/fixtures/poolside are
 * protocol-shaped, not captured (see their README.md).
 *
 * Modes: nothing documented says that `pool acp` asks before it edits or runs a command, and no
 * read-only mode is documented, so its flags hold neither: od offers read-only and edit only where
 * its kernel sandbox holds them. In full mode od allows whatever it does ask.
 * No resume: session/load is not documented.
 */
export default defineAcpAgent({
  id: "poolside",
  name: "Poolside",
  login: "run `pool` and sign in to Poolside",
  homepage: "https://poolside.ai",
  install: "install Poolside's `pool` binary (the ACP registry lists its downloads)",
  bin: "pool",
  state: [
    "{XDG_CONFIG_HOME:-.config}/poolside/", // settings.yaml, credentials.json (docs.poolside.ai/cli/pool)
  ],
  capabilities: { resume: false, readOnly: false, edit: false },
  argv: ["acp"],
});
