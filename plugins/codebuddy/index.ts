import { classifyStderr, defineAdapter, defineLinesProtocol, flag } from "../../src/plugin.ts";
import { AGENT, createState, finish, parse } from "./parse.ts";

/**
 * CodeBuddy Code (Tencent) headless: `-p --output-format stream-json` with the prompt on stdin.
 * Read-only is plan mode, which refuses every write and shell call with a tool result. Checked
 * against 2.117.0: `--disallowedTools` did not stop a Write even in acceptEdits mode, and a model
 * that asks for a tool `--tools` left out makes CodeBuddy retry the request forever.
 */
const PERMISSIONS = {
  "read-only": ["--permission-mode", "plan"],
  edit: ["--permission-mode", "acceptEdits"],
  full: ["--permission-mode", "bypassPermissions"],
} as const;

export default defineAdapter({
  id: "codebuddy",
  ...AGENT,
  homepage: "https://www.codebuddy.ai/cli",
  install: "npm install -g @tencent-ai/codebuddy-code",
  bin: "codebuddy",
  fallbackBins: ["cbc"],
  version: { args: ["--version"], parse: (out) => out.match(/\d+\.\d+\.\d+/)?.[0] },
  // `codebuddy --help` (2.117.0), --model: "Currently supported: (default-model, gemini-3.1-pro, ...)".
  models: [
    "default-model",
    "gemini-3.1-pro",
    "gemini-3.0-flash",
    "gemini-3.5-flash",
    "gemini-2.5-pro",
    "gemini-2.5-flash",
    "gemini-3.1-flash-lite",
    "gpt-5.5",
    "gpt-5.4",
    "gpt-5.3-codex",
    "gpt-5.1-codex",
    "gpt-5.1-codex-mini",
    "deepseek-v3-2-volc",
    "glm-5.0",
    "kimi-k2.5",
  ],
  efforts: ["minimal", "low", "medium", "high", "xhigh", "max"],
  state: [
    // projects/<cwd>/<session>.jsonl, sessions/, logs/, traces/, plugins/, local_storage/, shell-snapshots/,
    // user-state.json (observed in a live run); CODEBUDDY_CONFIG_DIR moves it (in its bundle).
    "{CODEBUDDY_CONFIG_DIR:-.codebuddy}/",
  ],
  detect: {
    configDir: ".codebuddy",
    npmPackage: "@tencent-ai/codebuddy-code",
    // Its first version with the flag is unknown (not in its CHANGELOG.md); 2.117.0's --help lists it.
    help: { args: ["--help"], flags: ["--include-partial-messages"], seenIn: { "--include-partial-messages": "2.117.0" } },
    auth: { envKeys: ["CODEBUDDY_API_KEY", "CODEBUDDY_AUTH_TOKEN"] },
  },
  capabilities: { streaming: true, resume: true, readOnly: true, allowedTools: true, maxTurns: true, skills: "prompt" },
  // `-p` with no prompt argument reads the prompt from stdin (checked against 2.117.0).
  prompt: { via: "stdin" },
  invoke: (ctx) => ({
    argv: [
      "-p",
      "--output-format",
      "stream-json",
      ...(ctx.flags && !ctx.flags.has("--include-partial-messages") ? [] : ["--include-partial-messages"]),
      ...flag("--model", ctx.model),
      ...flag("--effort", ctx.effort),
      ...flag("--resume", ctx.resume),
      ...flag("--allowedTools", ctx.allowedTools?.join(",")),
      ...flag("--max-turns", ctx.maxTurns),
      ...PERMISSIONS[ctx.mode],
    ],
    stdin: ctx.prompt,
  }),
  protocol: defineLinesProtocol({ createState, parse, finish }),
  classify: ({ stderrTail }) => classifyStderr(stderrTail, AGENT),
});
