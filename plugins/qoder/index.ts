import { classifyStderr, classifyText, defineAdapter, defineLinesProtocol, flag } from "../../src/plugin.ts";
import { AGENT, createState, parse } from "./parse.ts";

/**
 * Qoder CLI in print mode. The prompt goes on stdin: with no query argument and a non-TTY stdin,
 * `-p` reads stdin to EOF and uses it as the prompt (the bundle prepends it to any argv query).
 *
 * Permissions (`--permission-mode`, whose choices have no plan mode): read-only runs in `dont_ask`,
 * which denies every tool call that would need approval, and offers the model only the reading
 * tools (`--tools`); edit accepts file edits; full bypasses every check.
 *
 * How it is proven: against the real `@qoder-ai/qodercli` 1.1.52 (pinned in test/live/clis-proven.ts)
 * for detection (the version read from its package.json), the missing login (AGENT_AUTH_REQUIRED,
 * exit 4; fixture auth-failure is its real stdout with no account and no network) and cancel (during
 * its login check: exit 130, no process left); every flag below is in its `--help`. Its turns are
 * from its documented output (Claude Code's stream-json, the bundle's own schemas): no turn can run
 * offline, since Qoder needs an account checked online (center.qoder.sh) before any model request,
 * and custom model endpoints need that account too (its BYOK switch comes from Qoder's servers).
 */
const MODE_ARGS = {
  "read-only": ["--permission-mode", "dont_ask", "--tools", "Read,Grep,Glob"],
  edit: ["--permission-mode", "accept_edits"],
  full: ["--permission-mode", "bypass_permissions"],
} as const;

export default defineAdapter({
  id: "qoder",
  ...AGENT,
  homepage: "https://qoder.com/cli",
  install: "npm install -g @qoder-ai/qodercli",
  bin: "qodercli",
  version: { args: ["--version"], parse: (out) => out.match(/\d+\.\d+\.\d+/)?.[0] },
  state: [
    // logs/, .auth/, .bin/, entry/, security-resources/, shell-snapshots/, tmp/, installation_id, settings.json
    // (observed in a live run up to its login check); QODER_CONFIG_DIR or --config-dir moves it (`qodercli --help`).
    "{QODER_CONFIG_DIR:-.qoder}/",
  ],
  detect: {
    configDir: ".qoder",
    npmPackage: "@qoder-ai/qodercli",
    timeoutMs: 10_000,
    auth: { envKeys: ["QODER_PERSONAL_ACCESS_TOKEN"] },
  },
  // Qoder's model tiers (the CLI's own tier set; `qodercli --list-models` needs a login).
  models: ["auto", "ultimate", "performance", "efficient", "lite"],
  // `--reasoning-effort ludicrous`: "Valid values are: auto, none, low, medium, high, xhigh, max, ultracode."
  efforts: ["auto", "none", "low", "medium", "high", "xhigh", "max", "ultracode"],
  capabilities: { streaming: true, resume: true, readOnly: true, allowedTools: true, skills: "prompt" },
  prompt: { via: "stdin" },
  invoke: (ctx) => ({
    argv: [
      "-p",
      "--output-format",
      "stream-json",
      ...flag("--model", ctx.model),
      ...flag("--reasoning-effort", ctx.effort),
      ...flag("--resume", ctx.resume),
      ...(ctx.allowedTools ?? []).flatMap((t) => ["--allowed-tools", t]),
      // Last: `--tools` takes every following word.
      ...MODE_ARGS[ctx.mode],
    ],
    stdin: ctx.prompt,
  }),
  protocol: defineLinesProtocol({ createState, parse }),
  classify: ({ stderrTail }) => {
    // Startup failures: one line, then a stack trace.
    const critical = /An unexpected critical error occurred:\s*(.+)/.exec(stderrTail)?.[1]?.trim();
    if (critical?.includes("Invalid reasoning effort"))
      return { code: "MODEL_NOT_AVAILABLE", message: critical, hint: "Pick one of the valid values it names." };
    if (critical && /NetworkAttemptError/.test(critical))
      return {
        code: "AGENT_ERROR",
        message: critical,
        hint: "Qoder CLI checks the login with its servers before every run: check the network connection.",
      };
    if (critical) return classifyText(critical, AGENT);
    return classifyStderr(stderrTail, AGENT);
  },
});
