import { defineAcpAgent } from "../src/plugin.ts";
import { CURSOR_AUTH, CURSOR_STATE } from "./cursor-agent/index.ts";
import { AGENT } from "./cursor-agent/parse.ts";

/**
 * Cursor Agent over the Agent Client Protocol: `cursor-agent acp` (Cursor's docs: "Use `agent acp`
 * to run Cursor CLI as an ACP server over stdio"; acpx's registry runs `cursor-agent acp`). The
 * same CLI, login and `.cursor/rules` as the `cursor-agent` adapter, whose facts it reuses.
 *
 * How it is proven: from the ACP spec and Cursor's documentation, with the session's shape (its
 * `mode` option: agent, plan, ask; its `model` option; a shell command outside the allowlist asked
 * as session/request_permission) taken from a published capture of Cursor's ACP server; not run
 * here: Cursor Agent is not on npm and needs Cursor's account server. The fixtures in
 * test/fixtures/cursor-agent-acp are protocol-shaped, not captured (see their README.md).
 *
 * Modes, set as the session's `mode` option before the prompt (the driver fails closed when Cursor
 * does not offer it):
 * - read-only: `ask` ("Q&A mode - no edits or command execution").
 * - edit: `agent`. Cursor asks before every shell command not in its allowlist ("Not in allowlist")
 *   and od's policy answers (edit mode runs no command); edits inside the project are Cursor's own.
 * - full: `agent` too, and od allows whatever Cursor asks (`--force` is print mode's, not ACP's).
 */
export default defineAcpAgent({
  id: "cursor-agent-acp",
  name: "Cursor Agent (ACP)",
  login: AGENT.login,
  homepage: "https://cursor.com/docs/cli/using",
  install: "curl https://cursor.com/install -fsS | bash",
  bin: "cursor-agent",
  version: { args: ["--version"] }, // as `cursor-agent`'s: detection reads the version by its own pattern
  state: CURSOR_STATE,
  detect: { configDir: ".cursor", timeoutMs: 10_000, auth: CURSOR_AUTH },
  // The session's `model` option lists Cursor's models (ids with their parameter block); od selects over ACP.
  // Cursor documents `--resume <chat>` and its ACP server advertises loadSession.
  capabilities: { resume: true, images: true, readOnly: true, skills: "file" },
  skillTarget: ".cursor/rules/{name}.mdc",
  roleTarget: ".cursor/rules/{name}.mdc",
  argv: ["acp"],
  modes: { "read-only": "ask", edit: "agent", full: "agent" },
  classify: (ctx, byStderr) => {
    if (!/not authenticated|authentication required/i.test(ctx.stderrTail)) return byStderr(ctx);
    return { code: "AGENT_AUTH_REQUIRED", message: "Cursor Agent is not logged in", hint: `Log in: ${AGENT.login}` };
  },
});
