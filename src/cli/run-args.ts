import type { ArgsDef, ParsedArgs } from "citty";
import { OdError } from "../core/contract/errors.ts";
import type { RunRequest } from "../core/contract/request.ts";
import type { PlanView } from "../core/run/dry-run.ts";
import { log } from "./log.ts";
import { readMcpConfig } from "./mcp-config.ts";
import { stdout } from "./out.ts";
import { sandboxArg } from "./sandbox.ts";

/** `od run`'s options. */
export const runArgs = {
  prompt: { type: "positional", required: false, description: 'The prompt; "-" reads it from stdin', valueHint: "prompt" },
  agent: {
    type: "string",
    alias: "a",
    description:
      "Adapter id, or several (a,b,c) to run side by side in private copies (default: $OD_AGENT, then defaultAgent in ~/.open-design/config.json, then the first ready agent)",
    valueHint: "id",
  },
  repeat: {
    type: "string",
    description: "Run the agent this many times on the same task, each in a private copy, and compare (best of N)",
    valueHint: "n",
  },
  model: { type: "string", alias: "m", description: "Model id or alias; `default` passes no model flag" },
  effort: { type: "string", alias: "e", description: "Effort level, where the CLI has a real effort flag" },
  cwd: {
    type: "string",
    description: "Working directory of the agent (default: here; on a target, its login directory)",
    valueHint: "dir",
  },
  on: {
    type: "string",
    description:
      "Run the agent on a target: ssh://[user@]host[:port], docker://<container>, podman://<container>, kubectl://[ns/]pod[/container]",
    valueHint: "target",
  },
  mode: {
    type: "enum",
    options: ["read-only", "edit", "full"],
    default: "edit",
    description: "What the agent may do: read-only, edit (files in cwd), full (bypass approvals)",
  },
  resume: {
    type: "string",
    alias: "r",
    description: "Continue the session with this id (printed at the end of a run)",
    valueHint: "session",
  },
  timeout: { type: "string", alias: "t", description: "Give up after this many seconds", valueHint: "seconds" },
  "allowed-tools": {
    type: "string",
    description: "Tools the agent may use without asking, comma-separated (CLIs that take such a list; not in read-only)",
    valueHint: "list",
  },
  "max-turns": { type: "string", description: "Cap the agent's turns (CLIs that take one)", valueHint: "n" },
  "mcp-config": {
    type: "string",
    description:
      'Give the agent the MCP servers in this file ({"mcpServers": {name: {command, args, env} | {type: "http", url, headers}}}, as in .mcp.json; agents that take them)',
    valueHint: "file",
  },
  role: { type: "string", description: "Act as a role defined with `od init` for this agent", valueHint: "name" },
  image: {
    type: "string",
    alias: "i",
    description: "Send an image with the prompt (repeatable; only agents that take images natively)",
    valueHint: "path",
  },
  skill: { type: "string", alias: "s", description: "Use a skill (repeatable, or comma-separated; see `od skills`)", valueHint: "name" },
  retries: {
    type: "string",
    default: "2",
    description: "Retry transient failures (rate limits, overloaded servers) this many times",
    valueHint: "n",
  },
  json: { type: "boolean", description: "Print every event as one JSON line on stdout (with a run.result summary before run.finished)" },
  result: { type: "boolean", description: "End with a summary: files changed (and the diff in a git repository), tool calls, error" },
  ask: { type: "boolean", description: "Ask on the terminal when the agent requests permission (else the mode's policy decides)" },
  "dry-run": { type: "boolean", description: "Print the argv, env keys and stdin it would use, and spawn nothing" },
  ...sandboxArg,
} satisfies ArgsDef;

export type RunArgs = ParsedArgs<typeof runArgs>;

/** The request every agent of this command gets (the agent itself aside), and the retries asked for. */
export async function requestFrom(args: RunArgs, rawArgs: string[]): Promise<{ base: Omit<RunRequest, "agent">; attempts: number }> {
  const prompt = await readPrompt(args._);
  const list = (v: unknown) => ([] as string[]).concat((v as string | string[] | undefined) ?? []).map(String);
  const retries = Number(args.retries);
  if (!Number.isInteger(retries) || retries < 0)
    throw new OdError("INVALID_REQUEST", `--retries must be a whole number, not "${args.retries}"`);
  const base = {
    prompt,
    cwd: args.cwd,
    on: args.on,
    mode: args.mode as "edit",
    model: args.model,
    effort: args.effort,
    timeoutMs: args.timeout === undefined ? undefined : seconds(args.timeout),
    skills: repeated(rawArgs, "skill", "s")
      .flatMap((s) => s.split(","))
      .map((s) => s.trim())
      .filter(Boolean),
    images: repeated(rawArgs, "image", "i"),
    allowedTools: list(args["allowed-tools"])
      .flatMap((t) => t.split(","))
      .map((t) => t.trim())
      .filter(Boolean),
    maxTurns: args["max-turns"] === undefined ? undefined : wholeNumber("--max-turns", args["max-turns"]),
    mcpServers: args["mcp-config"] === undefined ? undefined : readMcpConfig(args["mcp-config"]),
  };
  return { base, attempts: retries + 1 };
}

/** Every value a repeatable option was given (citty keeps only the last): `--skill a --skill b`, `-s a`, `--skill=a`. */
export function repeated(rawArgs: string[], long: string, short: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < rawArgs.length; i++) {
    const token = rawArgs[i]!;
    if (token === "--") break;
    if (token === `--${long}` || token === `-${short}`) {
      if (i + 1 < rawArgs.length) out.push(rawArgs[++i]!);
    } else if (token.startsWith(`--${long}=`)) out.push(token.slice(long.length + 3));
  }
  return out;
}

/** What --dry-run shows: the plan as one JSON line, or as text (under the agent's label when there are several). */
export async function printPlan(plan: PlanView, json: boolean, label?: string): Promise<void> {
  if (json) return stdout.write(`${JSON.stringify(plan)}\n`);
  const lines = [
    `argv:  ${JSON.stringify(plan.argv)}`,
    `cwd:   ${plan.cwd}`,
    `env:   ${plan.envKeys.join(", ") || "(inherited only)"}`,
    `stdin: ${plan.stdin === undefined ? "(none)" : JSON.stringify(plan.stdin)}`,
    `sandbox: ${sandboxLine(plan.sandbox)}`,
    ...(plan.files ? [`files: ${plan.files.join(", ")} (written at launch, removed after)`] : []),
    ...(plan.mcp ? [`mcp:   ${plan.mcp}`] : []),
  ];
  await stdout.write(`${lines.map((l) => (label ? `[${label}] ${l}` : l)).join("\n")}\n`);
  if (!plan.resolved) log.warn(`${plan.bin} is not installed; the argv shows its bare name`);
}

/** The sandbox in one line: what holds the run, what it may write, what stays read-only, or why nothing does. */
export function sandboxLine(s: PlanView["sandbox"]): string {
  if (s.kind === "none") return s.note ? `none (${s.note})` : "none (full mode)";
  if (s.kind === "in-process") return "od's own tools (in process)";
  const parts = [`${s.kind}; writes: ${s.writable?.join(", ") ?? "-"}`];
  if (s.readOnly?.length) parts.push(`read-only: ${s.readOnly.join(", ")}`);
  if (s.note) parts.push(s.note);
  return parts.join("; ");
}

export async function readPrompt(positionals: string[]): Promise<string> {
  const fromStdin = positionals.length === 1 && positionals[0] === "-";
  if (fromStdin && process.stdin.isTTY) log.info("reading the prompt from the terminal; end it with Ctrl-D");
  const prompt = fromStdin ? await Bun.stdin.text() : positionals.join(" ");
  if (!prompt.trim())
    throw new OdError(
      "INVALID_REQUEST",
      fromStdin ? "The prompt read from stdin is empty" : "No prompt given",
      fromStdin
        ? 'Check what feeds od\'s stdin (echo "fix the tests" | od run --agent pi -), or pass the prompt as an argument.'
        : 'Pass it as an argument (od run --agent pi "fix the tests") or "-" to read stdin.',
    );
  return prompt;
}

function wholeNumber(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new OdError("INVALID_REQUEST", `${flag} must be a whole number above 0, not "${value}"`);
  return n;
}

function seconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new OdError("INVALID_REQUEST", `--timeout must be a positive number of seconds, not "${value}"`);
  return Math.round(n * 1000);
}
