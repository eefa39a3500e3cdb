import { defineAcpAgent, flag } from "../src/plugin.ts";
import copilot from "./copilot/index.ts";
import { AGENT } from "./copilot/parse.ts";

/**
 * GitHub Copilot CLI over the Agent Client Protocol: `copilot --acp` ("Start as Agent Client
 * Protocol server"; stdio is its only transport, the `--stdio` acpx adds is not in `--help`). The
 * same CLI, login and AGENTS.md as the `copilot` adapter, whose facts it reuses. Checked against
 * 1.0.102 in the live lane.
 *
 * Its session offers two options: `mode` (agent, plan, autopilot, as agentclientprotocol.com URLs)
 * and `allow_all` (off: "Require approval for tool, path, and URL requests"). od sets one before
 * the prompt (the driver fails closed if Copilot does not offer or refuses it):
 * - read-only: `mode` plan. Copilot itself blocks every file change and shell command outside its
 *   session folder ("Plan mode does not permit changes outside the session folder"), even with
 *   COPILOT_ALLOW_ALL=true (checked with a write and a shell call).
 * - edit: `allow_all` off. Copilot asks before every edit and command, and od's policy answers
 *   (edits inside the working directory only); `--disallow-temp-dir` drops the system temp dir it
 *   would also open unasked.
 * - full: `--allow-all-tools`, as headless.
 * COPILOT_ALLOW_ALL outranks the session option (with it "true" a command ran unasked although the
 * session said allow_all off), so read-only and edit set it to "false", which `copilot help
 * environment` names as off.
 *
 * The session lists no models, so `--model` and `--reasoning-effort` go on the command line.
 */
const MODE_ARGS = { "read-only": ["--disallow-temp-dir"], edit: ["--disallow-temp-dir"], full: ["--allow-all-tools"] } as const;

export default defineAcpAgent({
  id: "copilot-acp",
  name: "GitHub Copilot CLI (ACP)",
  login: AGENT.login,
  homepage: copilot.homepage,
  install: copilot.install,
  bin: copilot.bin,
  version: copilot.version,
  state: copilot.state, // the same CLI (observed: the same folders in a live ACP run)
  detect: copilot.detect,
  models: copilot.models,
  efforts: copilot.efforts,
  // Images go as ACP image blocks (promptCapabilities.image); session/load takes a session back.
  capabilities: { images: true, resume: true, readOnly: true, skills: "file" },
  skillTarget: "AGENTS.md",
  argv: (ctx) => ["--acp", ...flag("--model", ctx.model), ...flag("--reasoning-effort", ctx.effort), ...MODE_ARGS[ctx.mode]],
  env: (ctx) => (ctx.mode === "full" ? undefined : { COPILOT_ALLOW_ALL: "false" }),
  modes: { "read-only": "https://agentclientprotocol.com/protocol/session-modes#plan", edit: { configId: "allow_all", value: "off" } },
  classify: copilot.classify,
});
