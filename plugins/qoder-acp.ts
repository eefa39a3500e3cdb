import { defineAcpAgent } from "../src/plugin.ts";
import qoder from "./qoder/index.ts";
import { AGENT } from "./qoder/parse.ts";

/**
 * Qoder CLI over the Agent Client Protocol: `qodercli --acp` (a hidden option, "Starts the agent in
 * ACP mode": not in `--help`, so detection cannot scan for it; acpx's registry runs it so). The
 * same CLI and login as the `qoder` adapter, whose facts it reuses.
 *
 * How it is proven: against the real 1.1.52 only up to its login. Qoder answers `initialize`
 * (loadSession, images) but refuses `session/new` without a Qoder account ("Authentication
 * required: Authentication is required.", after 5–9 s of failing DNS lookups), and custom model
 * endpoints need that account too (its BYOK switch comes from Qoder's servers), so no turn can run
 * offline against the live lane's stub. The live lane proves the missing-login error against the
 * binary; detection (the version read from its package.json) and cancel (during the login check:
 * exit 130, no process left) were run by hand against it; the turns in test/fixtures/qoder-acp are
 * protocol-shaped (see its README.md).
 *
 * Modes go as `--permission-mode` (checked: `--acp` takes it and rejects an unknown value), the
 * values the `qoder` adapter uses headless and whose meanings the bundle's ACP mode list gives:
 * - edit: `default` ("Prompts for approval"): every edit and command is a session/request_permission
 *   that od's policy answers (edits inside the working directory only).
 * - read-only: `dont_ask` ("Refuses instead of prompting"), and only the reading tools (`--tools`).
 * - full: `bypass_permissions`.
 * No resume: session/load cannot be shown to work without a session to load.
 */
const MODE_ARGS = {
  "read-only": ["--permission-mode", "dont_ask", "--tools", "Read,Grep,Glob"],
  edit: ["--permission-mode", "default"],
  full: ["--permission-mode", "bypass_permissions"],
} as const;

export default defineAcpAgent({
  id: "qoder-acp",
  name: "Qoder CLI (ACP)",
  login: AGENT.login,
  homepage: qoder.homepage,
  install: qoder.install,
  bin: qoder.bin,
  version: qoder.version,
  state: qoder.state, // the same CLI (observed: the same folder in a live ACP run)
  detect: { ...qoder.detect, npmPackage: "@qoder-ai/qodercli" },
  // The session's options carry Qoder's models and reasoning effort; od selects the model over ACP.
  capabilities: { images: true, resume: false, readOnly: true },
  argv: (ctx) => ["--acp", ...MODE_ARGS[ctx.mode]],
  classify: qoder.classify,
});
