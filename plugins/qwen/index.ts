import { classifyStderr, defineAdapter, defineLinesProtocol, flag, mcpSettingsFile } from "../../src/plugin.ts";
import { AGENT, CLI, createState, parse } from "./parse.ts";

/**
 * Qwen Code headless: the prompt on stdin (no positional prompt; `-p` is deprecated), records in
 * the Claude Code shape. `--include-partial-messages` makes the answer stream as deltas.
 */
const APPROVAL_MODE = { "read-only": "plan", edit: "auto-edit", full: "yolo" } as const;

export default defineAdapter({
  id: "qwen",
  ...AGENT,
  ...CLI,
  detect: { configDir: ".qwen", npmPackage: "@qwen-code/qwen-code", auth: { envKeys: ["OPENAI_API_KEY"] } },
  // `--model` takes the configured provider's model id; qwen has no aliases of its own for them.
  models: [],
  efforts: [], // no effort flag (settings only)
  // Qwen Code loads QWEN.md from the working directory as context.
  // MCP servers: a settings file of the run's own, as the system defaults (mcpSettingsFile); never `trust`ed.
  // Qwen Code 0.24.4 reads it from the run's private folder under /tmp (`qwen mcp list` lists its servers),
  // where Gemini CLI 0.61.0 skips a system file that root does not own.
  capabilities: { streaming: true, resume: true, readOnly: true, allowedTools: true, mcpServers: true, skills: "file" },
  skillTarget: "QWEN.md",
  roleTarget: "QWEN.md",
  prompt: { via: "stdin" },
  invoke: (ctx) => ({
    argv: [
      "--output-format",
      "stream-json",
      "--include-partial-messages",
      ...flag("--model", ctx.model),
      ...flag("--resume", ctx.resume),
      ...(ctx.allowedTools ?? []).flatMap((t) => ["--allowed-tools", t]),
      "--approval-mode",
      APPROVAL_MODE[ctx.mode],
    ],
    stdin: ctx.prompt,
    ...mcpSettingsFile(ctx, "QWEN_CODE_SYSTEM_DEFAULTS_PATH"),
  }),
  protocol: defineLinesProtocol({ createState, parse }),
  classify: ({ stderrTail }) => {
    const unknown = /No saved session found with ID \S+/.exec(stderrTail);
    if (unknown)
      return {
        code: "INVALID_REQUEST",
        message: `Qwen Code has no session to resume: ${unknown[0]}`,
        hint: "Resume from the same working directory with an id from an earlier run, or start a new run.",
      };
    return classifyStderr(stderrTail, AGENT);
  },
});
