import { type Classification, classifyStderr, defineAdapter, defineLinesProtocol, flag, parseVersion } from "../../src/plugin.ts";
import { AGENT, createState, parse } from "./parse.ts";

/**
 * Factory Droid headless: `droid exec --output-format stream-json`, the prompt on stdin (`cat
 * prompt.txt | droid exec`, `droid exec --help`). Proven against 0.225.2 with a custom model
 * (~/.factory/settings.json `customModels`, `-m custom:<model>`), which runs with no Factory login.
 *
 * Modes, from droid's autonomy levels: with no `--auto`, exec is read-only (reading tools, and the
 * Execute tool for commands droid classes as read-only by the risk level the MODEL states); `--auto
 * low` adds file creation and edits, and low-risk commands (touch, mkdir, mv, cp). od removes the
 * Execute tool in read-only and edit (`--remove-tools Execute`), so neither rests on the model's
 * own risk rating: read-only reads, edit edits files (droid does not confine them to the working
 * directory: "non-system directories"), and only full (`--skip-permissions-unsafe`) runs commands.
 *
 * Resume is `-s <session-id>`, which loads the session through api.factory.ai: it needs a Factory
 * login and the network (offline it exits 1 with nothing on stdout).
 */
const MODE_ARGS = {
  "read-only": ["--remove-tools", "Execute"],
  edit: ["--auto", "low", "--remove-tools", "Execute"],
  full: ["--skip-permissions-unsafe"],
} as const;

/** `droid exec --help` lists the models as "  <id>   <name>" lines under "Available Models:". */
export function parseHelpModels(output: string): string[] {
  const block = /Available Models:\n((?:[ \t]+\S+[^\n]*\n?)+)/.exec(output)?.[1] ?? "";
  return [...block.matchAll(/^[ \t]+(\S+)[ \t]+(.*)$/gm)].filter((m) => !/\[Deprecated\]/.test(m[2]!)).map((m) => m[1]!);
}

function classify(stderrTail: string): Classification | undefined {
  if (/Authentication failed|FACTORY_API_KEY/.test(stderrTail))
    return { code: "AGENT_AUTH_REQUIRED", message: "Factory Droid is not logged in", hint: `Log in: ${AGENT.login}` };
  return classifyStderr(stderrTail, AGENT);
}

export default defineAdapter({
  id: "droid",
  ...AGENT,
  homepage: "https://docs.factory.ai/cli/getting-started/overview",
  install: "npm install -g @factory/cli",
  bin: "droid",
  // `droid --version` prints the bare version ("0.225.2").
  version: { args: ["--version"], parse: parseVersion },
  state: [
    // sessions/, logs/, state/, cache/, telemetry/, host.json (+ its .tmp and .lock), settings (observed in a live run);
    // FACTORY_HOME_OVERRIDE replaces HOME for it (droid binary: FACTORY_HOME_OVERRIDE ?? HOME).
    "{FACTORY_HOME_OVERRIDE:-.}/.factory/",
  ],
  detect: {
    configDir: ".factory",
    // The wrapper package; its postinstall hard-links the platform binary, which may be a patch ahead of it.
    npmPackage: "@factory/cli",
    auth: { envKeys: ["FACTORY_API_KEY"] },
    models: { args: ["exec", "--help"], parse: parseHelpModels },
  },
  // Custom (BYOK) models are `custom:<model>`; Factory's own come from `droid exec --help`.
  models: ["gpt-5.6-sol", "claude-sonnet-5", "claude-opus-5"],
  // `-r, --reasoning-effort <level>`: the union of the per-model levels `droid exec --help` lists.
  efforts: ["off", "none", "minimal", "low", "medium", "high", "xhigh", "max"],
  // Droid reads AGENTS.md in the working directory.
  capabilities: { streaming: true, resume: true, readOnly: true, skills: "file" },
  skillTarget: "AGENTS.md",
  prompt: { via: "stdin" },
  invoke: (ctx) => ({
    argv: [
      "exec",
      "--output-format",
      "stream-json",
      ...flag("--model", ctx.model),
      ...flag("--reasoning-effort", ctx.effort),
      ...flag("--session-id", ctx.resume),
      ...MODE_ARGS[ctx.mode],
    ],
    stdin: ctx.prompt,
  }),
  protocol: defineLinesProtocol({ createState, parse }),
  classify: ({ stderrTail }) => classify(stderrTail),
});
