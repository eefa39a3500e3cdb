import { defineAcpAgent } from "../src/plugin.ts";

/**
 * Junie CLI (JetBrains' `junie`, installed by JetBrains' own installer, not from npm) over the
 * Agent Client Protocol: `junie --acp=true` (acpx's registry argv; Junie's "Junie for ACP
 * clients" page writes it `junie --acp true`).
 *
 * How it is proven: from the ACP spec and Junie's documentation (its ACP page, its Action
 * Allowlist and modes pages); not run here: Junie is not on npm and needs a JetBrains account.
 * The fixtures in test/fixtures/junie are protocol-shaped, not captured (see their README.md).
 *
 * Modes. Junie's docs: "If brave mode is not explicitly enabled, Junie will ask for user approval
 * before running terminal commands, MCP tools, and other types of actions that are considered to
 * be sensitive" (editing files outside the project among them); edits inside the project are not
 * asked.
 * - edit: no flag; every approval Junie asks goes to od's policy (no commands, no edits outside
 *   the working directory). Rules in the user's ~/.junie/allowlist.json still run unasked.
 * - full: od allows everything Junie asks (brave mode is not documented as a flag).
 * - read-only: refused: Junie's read-only "Ask" mode is a picker in its UIs, not documented for ACP.
 * No resume: session/load is not documented for Junie's ACP mode.
 */
export default defineAcpAgent({
  id: "junie",
  name: "Junie",
  login: "run `junie` and sign in with your JetBrains account",
  homepage: "https://junie.jetbrains.com/docs/junie-cli-acp.html",
  install: "see https://junie.jetbrains.com/docs/junie-cli.html (JetBrains' installer)",
  bin: "junie",
  version: { parse: (out) => out.match(/\d+\.\d+(\.\d+)?[\w.-]*/)?.[0] },
  state: [
    ".junie/", // allowlist.json and the CLI's settings (junie.jetbrains.com/docs/action-allowlist-junie-cli.html)
  ],
  detect: { configDir: ".junie" },
  // Junie reads AGENTS.md-style guidelines from .junie/guidelines.md.
  capabilities: { resume: false, readOnly: false, skills: "file" },
  skillTarget: ".junie/guidelines.md",
  argv: ["--acp=true"],
});
