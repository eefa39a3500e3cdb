import { defineAcpAgent } from "../src/plugin.ts";

/**
 * Kiro CLI (AWS's `kiro-cli`, installed by its own installer, not from npm) over the Agent Client
 * Protocol: `kiro-cli acp` ("Run kiro-cli acp to start Kiro as an ACP-compliant agent that
 * communicates over stdin/stdout using JSON-RPC", since 1.25.0). acpx's registry runs the chat
 * binary the CLI installs beside it, `kiro-cli-chat acp`, taken when `kiro-cli` is not on PATH.
 *
 * How it is proven: from the ACP spec and Kiro's documentation (its ACP page and changelog 1.25,
 * its tool permissions); not run here: Kiro is not on npm and needs an AWS Builder ID or IAM
 * Identity Center login. The fixtures in test/fixtures/kiro are protocol-shaped, not captured
 * (see their README.md).
 *
 * Modes. Kiro's tools are "trusted" (run unasked) or "per-request" (Kiro asks each time);
 * writing files and running shell commands are per-request unless the user trusted them.
 * - edit: no flag; what Kiro asks goes to od's policy (edits inside the working directory only,
 *   no commands). Tools the user trusted in Kiro's own agent config still run unasked.
 * - full: od allows everything Kiro asks (`--trust-all-tools` is `kiro-cli chat`'s flag, not
 *   documented for `acp`).
 * - read-only: refused: Kiro documents no read-only mode for ACP sessions.
 * No resume: session/load is not documented for Kiro's ACP server.
 */
export default defineAcpAgent({
  id: "kiro",
  name: "Kiro",
  login: "run `kiro-cli login`",
  homepage: "https://kiro.dev/docs/cli/acp/",
  install: "curl -fsSL https://cli.kiro.dev/install | bash",
  bin: "kiro-cli", // `kiro-cli --version` prints "kiro-cli 1.25.0".
  fallbackBins: ["kiro-cli-chat"],
  state: [
    ".kiro/", // settings, agents, sessions/cli/<id>.jsonl (kiro.dev/docs/cli; openusage.sh/docs/providers/kiro)
    "{XDG_DATA_HOME:-.local/share}/kiro-cli/", // data.sqlite3, its conversation store (openusage.sh/docs/providers/kiro)
    "Library/Application Support/kiro-cli", // the same store on macOS; only when present
  ],
  // ACP arrived in 1.25.0.
  detect: { configDir: ".kiro", minVersion: "1.25.0" },
  capabilities: { resume: false, readOnly: false },
  argv: ["acp"],
});
