import { type Classification, classifyText, defineAdapter, defineLinesProtocol, flag } from "../../src/plugin.ts";
import { AGENT, createState, parse } from "./parse.ts";

/**
 * Kimi Code (`@moonshot-ai/kimi-code`, the TypeScript CLI that replaced the Python kimi-cli).
 * Headless is `kimi -p <prompt> --output-format stream-json`, and 2.1.0 leaves od no choice:
 * without `-p` it refuses `--output-format` ("Output format is only supported in prompt mode"),
 * and `-p -` sends a literal "-". Print mode always runs with Kimi's "auto" permission policy and
 * rejects `--plan`, `--yolo` and `--auto` next to `-p`, so its flags hold neither read-only nor edit
 * (edit would be a full run under another name): od offers those modes only where its kernel
 * sandbox holds them, and full everywhere.
 */

/** `kimi provider list --json` prints the configured `models` table; its keys are the `-m` aliases. */
export function parseModelAliases(output: string): string[] {
  try {
    const models = (JSON.parse(output) as { models?: unknown }).models;
    return models && typeof models === "object" ? Object.keys(models) : [];
  } catch {
    return [];
  }
}

/** The run failure Kimi prints on stderr: `error: failed to run prompt: <reason>`, then a log path. */
function failure(stderrTail: string): string | undefined {
  const line = stderrTail
    .split("\n")
    .reverse()
    .find((l) => l.startsWith("error:"));
  return line?.replace(/^error:\s*/, "").replace(/^failed to run prompt:\s*/, "");
}

function classify(stderrTail: string): Classification | undefined {
  const message = failure(stderrTail);
  if (!message) return undefined;
  if (/^Session ".*"/.test(message))
    return {
      code: "INVALID_REQUEST",
      message,
      hint: "Kimi resumes a session only from the directory it was created in: use the same --cwd, or start a new run.",
    };
  if (/^Model ".*" is not configured/.test(message))
    return { code: "MODEL_NOT_AVAILABLE", message, hint: "Pass a model alias from `kimi provider list`, or leave --model out." };
  if (/No model configured/.test(message)) return { code: "AGENT_AUTH_REQUIRED", message, hint: `Log in: ${AGENT.login}` };
  return classifyText(message, AGENT);
}

export default defineAdapter({
  id: "kimi",
  ...AGENT,
  homepage: "https://moonshotai.github.io/kimi-code/",
  install: "npm install -g @moonshot-ai/kimi-code",
  bin: "kimi",
  version: { args: ["--version"], parse: (out) => out.match(/\d+\.\d+\.\d+/)?.[0] },
  // Aliases from Kimi's docs (`kimi -m kimi-code/kimi-for-coding`, config example `kimi-code/k3`);
  // the configured ones come from `kimi provider list --json`.
  models: ["kimi-code/k3", "kimi-code/kimi-for-coding"],
  efforts: [], // effort is a per-model config setting, not a flag
  state: [
    "{KIMI_CODE_HOME:-.kimi-code}/", // sessions/, logs/, cache/, file-history/, device_id, workspaces.json, updates/ (observed in a live run); KIMI_CODE_HOME in its bundle
  ],
  // Its providers and the commands it starts (MCP servers) for every later run; headless it runs every
  // tool unasked, so in read-only and edit only the kernel keeps an agent from rewriting it.
  lockedState: ["{KIMI_CODE_HOME:-.kimi-code}/config.toml"],
  detect: {
    configDir: ".kimi-code",
    npmPackage: "@moonshot-ai/kimi-code",
    models: { args: ["provider", "list", "--json"], parse: parseModelAliases },
  },
  capabilities: { streaming: true, resume: true, readOnly: false, edit: false, skills: "prompt" },
  prompt: { via: "argv", maxPromptArgBytes: 30_000 },
  invoke: (ctx) => ({
    argv: ["-p", ctx.prompt, "--output-format", "stream-json", ...flag("--model", ctx.model), ...flag("--session", ctx.resume)],
  }),
  protocol: defineLinesProtocol({ createState, parse }),
  classify: ({ stderrTail }) => classify(stderrTail),
});
