import { defineAcpAgent } from "../src/plugin.ts";
import opencode from "./opencode/index.ts";
import { AGENT } from "./opencode/parse.ts";

/**
 * OpenCode over the Agent Client Protocol: `opencode acp` ("start ACP (Agent Client Protocol)
 * server"; its other options are server, log and `--cwd` ones). The same CLI, config and AGENTS.md
 * as the `opencode` adapter, whose facts it reuses. Checked against 1.18.33 in the live lane.
 *
 * `opencode acp` takes no permission flag, so the rules come through OPENCODE_PERMISSION, which
 * OpenCode merges over every agent's rules (as the `opencode` adapter and `kilo` do):
 * - edit: edits, commands and web fetches "ask", so each is a session/request_permission that
 *   od's policy answers (edits inside the working directory only); the session's `mode` is "build".
 * - read-only: the session's `mode` "plan" ("Plan mode. Disallows all edit tools"), and edit and
 *   bash denied by OpenCode itself (its plan agent would still run commands).
 * - full: OpenCode's own defaults (edits and commands run unasked).
 * The driver sets the mode before the prompt and fails closed if OpenCode does not offer it.
 * Models are the session's `model` option (`provider/model` ids); its `effort` option is not set.
 */
const PERMISSION = { "read-only": { edit: "deny", bash: "deny" }, edit: { edit: "ask", bash: "ask", webfetch: "ask" } } as const;

export default defineAcpAgent({
  id: "opencode-acp",
  name: "OpenCode (ACP)",
  login: AGENT.login,
  homepage: opencode.homepage,
  install: opencode.install,
  bin: opencode.bin,
  fallbackBins: opencode.fallbackBins,
  version: opencode.version,
  state: opencode.state, // the same CLI (observed: the same folders in a live ACP run)
  detect: { configDir: ".config/opencode", npmPackage: "opencode-ai", timeoutMs: 15_000 },
  // OpenCode reads AGENTS.md in the working directory; images go as ACP image blocks.
  capabilities: { images: true, resume: true, readOnly: true, skills: "file" },
  skillTarget: "AGENTS.md",
  argv: ["acp"],
  env: (ctx) => (ctx.mode === "full" ? undefined : { OPENCODE_PERMISSION: JSON.stringify(PERMISSION[ctx.mode]) }),
  modes: { "read-only": "plan", edit: "build" },
  classify: opencode.classify,
});
