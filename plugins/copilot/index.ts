import { classifyStderr, defineAdapter, defineLinesProtocol, flag } from "../../src/plugin.ts";
import { AGENT, createState, parse } from "./parse.ts";

/**
 * Copilot CLI headless: no `-p`; a piped stdin is the prompt (the run starts at EOF) and the CLI
 * exits after the turn. `--no-ask-user` drops the ask_user tool nobody could answer.
 *
 * Permissions: without an allow rule a tool that needs approval is denied ("no interactive user
 * response was available") and the turn goes on. read-only offers the model only the reading tools
 * and denies writes and the shell on top (deny rules win over every allow); edit allows file writes,
 * which path verification keeps inside the working directory (`--disallow-temp-dir` drops the
 * system temp dir it would also allow); full allows every tool.
 */
const MODE_ARGS = {
  "read-only": ["--available-tools=view,grep,glob", "--deny-tool=write", "--deny-tool=shell"],
  edit: ["--allow-tool=write", "--disallow-temp-dir"],
  full: ["--allow-all-tools"],
} as const;

/** The `model` setting's documented values in `copilot help config` (`    - "gpt-5.4"` lines). */
export function parseConfigModels(output: string): string[] {
  const block = /`model`:[^\n]*\n((?:[ \t]+- "[^"]+"[^\n]*\n?)+)/.exec(output)?.[1] ?? "";
  return [...block.matchAll(/- "([^"]+)"/g)].map((m) => m[1]!);
}

export default defineAdapter({
  id: "copilot",
  ...AGENT,
  homepage: "https://github.com/github/copilot-cli",
  install: "npm install -g @github/copilot",
  bin: "copilot",
  version: { args: ["--version"], parse: (out) => out.match(/\d+\.\d+\.\d+/)?.[0] },
  state: [
    "{COPILOT_HOME:-.copilot}/", // config.json, logs/, session-state/, session-store.db (observed in a live run); COPILOT_HOME in `copilot help environment`
    "{XDG_CACHE_HOME:-.cache}/copilot/", // the runtime it unpacks and the inuse.*.lock files it holds in pkg/<platform>/<version> (observed)
    "{COPILOT_CACHE_HOME}/", // the same cache when moved (copilot binary: COPILOT_PKG_CACHE_HOME, else COPILOT_CACHE_HOME, else the XDG cache)
    "{COPILOT_PKG_CACHE_HOME}/", // ditto
    "Library/Caches/copilot", // the cache on macOS (copilot binary); only when present
  ],
  detect: {
    configDir: ".copilot",
    timeoutMs: 10_000,
    npmPackage: "@github/copilot",
    // Copilot updates itself into these package caches and runs the newest complete one there.
    updateDirs: [
      "{COPILOT_PKG_CACHE_HOME}/pkg",
      "{COPILOT_CACHE_HOME}/pkg",
      "{XDG_CACHE_HOME:-.cache}/copilot/pkg",
      "Library/Caches/copilot/pkg",
      "{LOCALAPPDATA:-AppData/Local}/copilot/pkg",
      "{COPILOT_HOME}/pkg",
      ".copilot/pkg",
    ],
    auth: { envKeys: ["COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN", "COPILOT_PROVIDER_BASE_URL"] },
    models: { args: ["help", "config"], parse: parseConfigModels },
  },
  // `--model`: "use 'auto' to let Copilot pick automatically"; the full list is `copilot help config`.
  models: ["auto"],
  // `--reasoning-effort <level>`: "[possible values: none, minimal, low, medium, high, xhigh, max]".
  efforts: ["none", "minimal", "low", "medium", "high", "xhigh", "max"],
  // Copilot CLI loads custom instructions from AGENTS.md (`copilot --help`: --no-custom-instructions).
  capabilities: { streaming: true, resume: true, readOnly: true, skills: "file" },
  skillTarget: "AGENTS.md",
  prompt: { via: "stdin" },
  invoke: (ctx) => ({
    argv: [
      "--output-format",
      "json",
      "--no-ask-user",
      ...flag("--model", ctx.model),
      ...flag("--reasoning-effort", ctx.effort),
      ...flag("--resume", ctx.resume),
      ...MODE_ARGS[ctx.mode],
    ],
    stdin: ctx.prompt,
  }),
  protocol: defineLinesProtocol({ createState, parse }),
  classify: ({ stderrTail }) => {
    if (/No authentication information found|Authentication token found but could not be validated/.test(stderrTail))
      return { code: "AGENT_AUTH_REQUIRED", message: "GitHub Copilot CLI is not logged in", hint: `Log in: ${AGENT.login}` };
    const unknown = /No session, task, or name matched '([^']*)'/.exec(stderrTail);
    if (unknown)
      return {
        code: "INVALID_REQUEST",
        message: `Copilot has no session matching '${unknown[1]}'`,
        hint: "Resume with a session id from an earlier run (`copilot --resume` lists them), or start a new run.",
      };
    return classifyStderr(stderrTail, AGENT);
  },
});
