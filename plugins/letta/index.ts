import { type Classification, classifyStderr, defineAdapter, defineLinesProtocol, flag, parseVersion } from "../../src/plugin.ts";
import { AGENT, createState, MISSING_KEY, parse } from "./parse.ts";

/**
 * Letta Code (`@letta-ai/letta-code`, bin `letta`) headless: `letta -p --output-format stream-json`,
 * the prompt on stdin (with no prompt argument, headless reads a piped stdin whole).
 *
 * How it is proven: from Letta Code's source, not run here: `@letta-ai/letta-code` has
 * dependencies the npm registry here does not serve, so it does not install, and headless it needs
 * Letta Cloud (LETTA_API_KEY) or a Letta server. Sources (github.com/letta-ai/letta-code at
 * 1f4d3e3, package 0.30.29): src/cli/args.ts (flags: `-p/--prompt`, `--output-format
 * text|json|stream-json`, `-m/--model`, `-C/--conversation`, `--permission-mode`, `--yolo`,
 * `--allowedTools`, `--disallowedTools`, `--tools`), src/headless.ts (stdin prompt, the
 * stream-json records, headless approvals), src/types/protocol.ts (record shapes),
 * src/permissions/mode.ts and checker.ts (permission modes), src/index.ts ("Missing
 * LETTA_API_KEY"). `--output-format json` prints its one result pretty-printed over many lines,
 * so od reads stream-json, one record a line. Fixtures in test/fixtures/letta are shaped from
 * these, not captured (see their README.md).
 *
 * Modes. Letta Code's default permission mode is `unrestricted` (every tool allowed), so od always
 * names one. Headless, a tool that would ask is denied ("Tool requires approval (headless mode)"):
 * - read-only: `--permission-mode standard`: only the reading tools (Read, Glob, Grep, LS and
 *   their Codex/Gemini twins) run unasked; writes are denied. Shell tools are also disallowed
 *   (`--disallowedTools`), so no command runs, not even one Letta classes as read-only.
 * - edit: `--permission-mode acceptEdits`: the edit and write tools run too (not confined to the
 *   working directory), shell tools disallowed as in read-only.
 * - full: `--yolo` (the `unrestricted` mode).
 * Allow rules in the user's Letta settings still apply.
 *
 * Resume: `--conversation <id>` with the init record's conversation_id. No effort flag.
 */
const SHELL_TOOLS = "Bash,BashOutput,KillBash,shell_command,ShellCommand,run_shell_command,RunShellCommand,exec_command";
const MODE_ARGS = {
  "read-only": ["--permission-mode", "standard", "--disallowedTools", SHELL_TOOLS],
  edit: ["--permission-mode", "acceptEdits", "--disallowedTools", SHELL_TOOLS],
  full: ["--yolo"],
} as const;

function classify(stderrTail: string): Classification | undefined {
  const line = stderrTail.split("\n").find((l) => MISSING_KEY.test(l));
  if (line) return { code: "AGENT_AUTH_REQUIRED", message: line.trim(), hint: `Log in: ${AGENT.login}` };
  return classifyStderr(stderrTail, AGENT);
}

export default defineAdapter({
  id: "letta",
  ...AGENT,
  homepage: "https://docs.letta.com/letta-code",
  install: "npm install -g @letta-ai/letta-code",
  bin: "letta",
  version: { args: ["--version"], parse: parseVersion },
  // Letta Code also writes the working directory's .letta/settings.local.json after each session
  // (src/settings-manager.ts persistSession): refused in read-only, it logs the error and goes on.
  state: [
    ".letta/", // settings.json, sessions.jsonl, agents/ (memory), logs/, cache/ (github.com/letta-ai/letta-code at 1f4d3e3: src/settings-manager.ts, src/agent/session-history.ts, src/cli/helpers/chunk-log.ts)
  ],
  detect: {
    configDir: ".letta",
    npmPackage: "@letta-ai/letta-code",
    // Headless needs the key in the environment (a saved /login is for the interactive CLI only).
    auth: { envKeys: ["LETTA_API_KEY"] },
  },
  models: [],
  efforts: [],
  // Letta Code loads project skills from .skills in the working directory (`--skills` overrides it).
  capabilities: { streaming: true, resume: true, readOnly: true, skills: "native" },
  skillTarget: ".skills",
  prompt: { via: "stdin" },
  invoke: (ctx) => ({
    argv: [
      "-p",
      "--output-format",
      "stream-json",
      ...flag("--model", ctx.model),
      ...flag("--conversation", ctx.resume),
      ...MODE_ARGS[ctx.mode],
    ],
    stdin: ctx.prompt,
  }),
  protocol: defineLinesProtocol({ createState, parse }),
  classify: ({ stderrTail }) => classify(stderrTail),
});
