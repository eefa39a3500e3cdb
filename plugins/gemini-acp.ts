import { defineAcpAgent } from "../src/plugin.ts";
import { AGENT, AUTH, CLI } from "./gemini.ts";

/**
 * Gemini CLI over the Agent Client Protocol (`gemini --acp`): the same CLI as `gemini`, with
 * its permission requests relayed to od. In edit mode Gemini asks before each edit (its default
 * approval mode) and od's policy answers: edits inside the working directory only.
 */
const APPROVAL_MODE = { "read-only": "plan", edit: "default", full: "yolo" } as const;

export default defineAcpAgent({
  id: "gemini-acp",
  name: "Gemini CLI (ACP)",
  login: AGENT.login,
  ...CLI,
  detect: {
    configDir: ".gemini",
    npmPackage: "@google/gemini-cli",
    auth: AUTH,
    // `--acp` since 0.33 (google-gemini/gemini-cli#21171; 0.61.0's --help lists it): the version tells, no `--help` runs.
    help: { args: ["--help"], flags: ["--acp"], since: { "--acp": "0.33.0" } },
  },
  // Over ACP the model is chosen by the session's model option, from the ids Gemini lists there
  // (`od run` refuses others and names the valid ones); the command-line aliases do not apply.
  // Gemini 0.61 advertises session/load but answers "No previous sessions found" for its own ACP
  // sessions; resume through the `gemini` adapter instead.
  // Images go as ACP image blocks (the agent advertises promptCapabilities.image).
  capabilities: { images: true, resume: false, readOnly: true, skills: "file" },
  skillTarget: "GEMINI.md",
  roleTarget: "GEMINI.md",
  // `--acp` (older versions: `--experimental-acp`); `--skip-trust` as in headless mode.
  argv: (ctx) => [
    ctx.flags && !ctx.flags.has("--acp") ? "--experimental-acp" : "--acp",
    "--skip-trust",
    "--approval-mode",
    APPROVAL_MODE[ctx.mode],
  ],
});
