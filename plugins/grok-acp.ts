import { defineAcpAgent } from "../src/plugin.ts";
import grok from "./grok/index.ts";
import { AGENT, GROK_STATE } from "./grok/parse.ts";

/**
 * Grok Build (xAI's `grok`) over the Agent Client Protocol: `grok agent stdio`, its documented
 * agent mode ("Agent mode runs Grok as a long-lived server that clients talk to over ACP"; acpx's
 * registry runs `grok agent stdio`). The same CLI and login as the `grok` adapter.
 *
 * How it is proven: from the ACP spec and Grok Build's documentation (its agent-mode guide and its
 * headless flags); not run here: Grok Build is installed by its own script, not from npm, and
 * talks only to xAI. The fixtures in test/fixtures/grok-acp are protocol-shaped, not captured
 * (see their README.md).
 *
 * Modes. The agent-mode guide: without always-approve the session keeps Grok's default ask mode,
 * and ACP carries "permission prompts when the session is not always-approve".
 * - edit: nothing added; every tool Grok asks about goes to od's policy (edits inside the
 *   working directory only, no commands).
 * - full: `grok agent --always-approve stdio` ("tools run without interactive permission prompts;
 *   deny rules and hooks still apply").
 * - read-only: refused. The headless read-only sandbox and tool list are print mode's flags, and
 *   the guide documents no read-only session mode for agent mode; use the `grok` adapter.
 * Grok's agent mode documents sessions it can create, load and resume: `--resume` goes through
 * session/load.
 */
export default defineAcpAgent({
  id: "grok-acp",
  name: "Grok Build (ACP)",
  login: AGENT.login,
  homepage: "https://docs.x.ai/build/cli/headless-scripting",
  install: "curl -fsSL https://x.ai/cli/install.sh | bash",
  bin: "grok",
  version: grok.version,
  state: GROK_STATE,
  detect: { configDir: ".grok", auth: { envKeys: ["XAI_API_KEY"], files: [{ path: "{GROK_HOME:-.grok}/auth.json" }] } },
  // The session's `model` option lists what the account can use; od selects over ACP.
  capabilities: { resume: true, readOnly: false },
  argv: (ctx) => ["agent", ...(ctx.mode === "full" ? ["--always-approve"] : []), "stdio"],
});
