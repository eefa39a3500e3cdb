import { classifyStderr, defineAdapter, defineLinesProtocol, flag } from "../../src/plugin.ts";
import { AGENT, createState, GROK_STATE, parse } from "./parse.ts";

/**
 * Grok Build (xAI's `grok`, installed by its own script, not from npm), in its documented headless
 * form: `grok --prompt-file <path> --output-format streaming-json` (`-p <prompt>` takes it in argv).
 * Headless mode does not read a piped stdin, so the prompt goes in a file, never in argv.
 * Modes: read-only is the read-only sandbox profile plus a read-only built-in tool list; edit
 * accepts edits inside a workspace sandbox; `--always-approve` (alias `--yolo`) only in full.
 */
const PERMISSIONS = {
  "read-only": ["--sandbox", "read-only", "--tools", "read_file,grep,list_dir"],
  edit: ["--sandbox", "workspace", "--permission-mode", "acceptEdits"],
  full: ["--always-approve"],
} as const;

export default defineAdapter({
  id: "grok",
  ...AGENT,
  homepage: "https://docs.x.ai/build/cli/headless-scripting",
  install: "curl -fsSL https://x.ai/cli/install.sh | bash",
  bin: "grok",
  version: { args: ["--version"], parse: (out) => out.match(/\d+\.\d+\.\d+/)?.[0] },
  models: ["grok-build"], // the guide's `-m` example; `grok models` lists what an account can use
  // `--effort` / `--reasoning-effort`: "none, minimal, low, medium, high, xhigh, max".
  efforts: ["none", "minimal", "low", "medium", "high", "xhigh", "max"],
  state: GROK_STATE,
  detect: { configDir: ".grok", auth: { envKeys: ["XAI_API_KEY"] } },
  capabilities: { streaming: true, resume: true, readOnly: true, skills: "prompt" },
  prompt: { via: "file" },
  invoke: (ctx) => ({
    argv: [
      "--prompt-file",
      ctx.promptFile ?? "",
      "--output-format",
      "streaming-json",
      "--no-auto-update",
      ...flag("--model", ctx.model),
      ...flag("--effort", ctx.effort),
      ...flag("--resume", ctx.resume),
      ...PERMISSIONS[ctx.mode],
    ],
  }),
  protocol: defineLinesProtocol({ createState, parse }),
  classify: ({ stderrTail }) => classifyStderr(stderrTail, AGENT),
});
