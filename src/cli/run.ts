import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { loadRegistry, loadSkills } from "../builtins.ts";
import { selectAgent } from "../core/agents/select.ts";
import { exitCodeFor, OdError } from "../core/errors.ts";
import type { OdEvent } from "../core/events.ts";
import { DEFAULT_RETRY, runWithRetry } from "../core/run/retry.ts";
import { planRun } from "../core/run/run.ts";
import { withResult } from "../core/run/summary.ts";
import { batchedSinks } from "./batched.ts";
import { odCommand } from "./command.ts";
import { log } from "./log.ts";
import { runParallel } from "./parallel-run.ts";
import { createTextRenderer } from "./render.ts";
import { ttyBroker } from "./tty-broker.ts";

export default odCommand({
  meta: { name: "run", description: "Run one prompt on an agent CLI and stream what it does" },
  args: {
    prompt: { type: "positional", required: false, description: 'The prompt; "-" reads it from stdin', valueHint: "prompt" },
    agent: {
      type: "string",
      alias: "a",
      description:
        "Adapter id, or several (a,b,c) to run side by side in private copies (default: $OD_AGENT, then defaultAgent in ~/.open-design/config.json, then the first ready agent)",
      valueHint: "id",
    },
    model: { type: "string", alias: "m", description: "Model id or alias; `default` passes no model flag" },
    effort: { type: "string", alias: "e", description: "Effort level, where the CLI has a real effort flag" },
    cwd: { type: "string", description: "Working directory of the agent (default: here)", valueHint: "dir" },
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
  },
  async run({ args, rawArgs }) {
    const prompt = await readPrompt(args._);
    const list = (v: unknown) => ([] as string[]).concat((v as string | string[] | undefined) ?? []).map(String);
    const timeoutMs = args.timeout === undefined ? undefined : seconds(args.timeout);
    const registry = await loadRegistry();
    if (registry.errors.length) log.warn(`${registry.errors.length} plugin(s) failed to load; see \`od plugins\``);
    const skills = repeated(rawArgs, "skill", "s")
      .flatMap((s) => s.split(","))
      .map((s) => s.trim())
      .filter(Boolean);
    const images = repeated(rawArgs, "image", "i");
    const retries = Number(args.retries);
    if (!Number.isInteger(retries) || retries < 0)
      throw new OdError("INVALID_REQUEST", `--retries must be a whole number, not "${args.retries}"`);
    const base = {
      prompt,
      cwd: args.cwd,
      mode: args.mode as "edit",
      model: args.model,
      effort: args.effort,
      timeoutMs,
      skills,
      images,
      allowedTools: list(args["allowed-tools"])
        .flatMap((t) => t.split(","))
        .map((t) => t.trim())
        .filter(Boolean),
      maxTurns: args["max-turns"] === undefined ? undefined : wholeNumber("--max-turns", args["max-turns"]),
    };
    const policyFor = (agent: string) => ({
      ...DEFAULT_RETRY,
      attempts: retries + 1,
      fallbackModel: registry.get(agent)?.adapter.rateLimitFallbackModel,
    });

    if (args.agent?.includes(",")) {
      const agents = args.agent
        .split(",")
        .map((a) => a.trim())
        .filter(Boolean);
      // A session, a role and terminal questions each belong to one agent.
      for (const [flag, given] of [
        ["--resume", args.resume],
        ["--role", args.role],
        ["--ask", args.ask],
      ] as const)
        if (given)
          throw new OdError(
            "INVALID_REQUEST",
            `${flag} applies to one agent, not to several (--agent ${args.agent})`,
            "Run each agent on its own for that.",
          );
      if (args["dry-run"]) {
        for (const agent of agents)
          printPlan(await planRun({ ...base, agent }, { registry, skills: () => loadSkills() }), Boolean(args.json), agent);
        return;
      }
      const controller = new AbortController();
      process.on("SIGINT", () => controller.abort());
      process.on("SIGTERM", () => controller.abort());
      process.exitCode = await runParallel(agents, base, {
        registry,
        json: Boolean(args.json),
        signal: controller.signal,
        color: Boolean(process.stderr.isTTY) && !process.env.NO_COLOR,
        policyFor,
      });
      return;
    }
    const { agent, because } = await selectAgent(registry, args.agent);
    if (because !== "--agent") log.info(`agent: ${agent} (${because})`);
    const request = { ...base, agent, resume: args.resume, role: args.role };

    if (args["dry-run"]) {
      printPlan(await planRun(request, { registry, skills: () => loadSkills() }), Boolean(args.json));
      return;
    }

    const controller = new AbortController();
    const sinks = batchedSinks(process.stdout, process.stderr);
    let interrupts = 0;
    const onSigint = () => {
      if (++interrupts > 1) {
        sinks.flush();
        process.exit(130); // a second Ctrl-C while the ladder runs: leave now
      }
      controller.abort();
    };
    process.on("SIGINT", onSigint);
    process.on("SIGTERM", onSigint);

    const render = args.json
      ? (e: OdEvent) => sinks.out.write(`${JSON.stringify(e)}\n`)
      : createTextRenderer(sinks.out, sinks.err, Boolean(process.stderr.isTTY) && !process.env.NO_COLOR, { result: Boolean(args.result) });
    let firstError: OdError | undefined;
    let finished: Extract<OdEvent, { type: "run.finished" }> | undefined;
    const broker = args.ask && process.stderr.isTTY && existsSync("/dev/tty") ? ttyBroker(sinks.err) : undefined;
    if (args.ask && !broker) log.warn("--ask needs a terminal; the mode's policy decides instead");
    const events = runWithRetry(request, { registry, signal: controller.signal, broker, skills: () => loadSkills() }, policyFor(agent));
    try {
      for await (const event of args.json || args.result ? withResult(events, resolve(args.cwd ?? process.cwd())) : events) {
        if (event.type === "error") firstError ??= new OdError(event.code, event.message, event.hint);
        if (event.type === "run.finished") finished = event;
        render(event);
      }
    } finally {
      sinks.flush();
    }
    process.off("SIGINT", onSigint);
    process.off("SIGTERM", onSigint);
    if (finished?.status === "cancelled") process.exitCode = 130;
    else if (finished?.status !== "succeeded") process.exitCode = firstError ? exitCodeFor(firstError.code) : 1;
  },
});

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
function printPlan(plan: Awaited<ReturnType<typeof planRun>>, json: boolean, label?: string): void {
  if (json) return void process.stdout.write(`${JSON.stringify(plan)}\n`);
  const lines = [
    `argv:  ${JSON.stringify(plan.argv)}`,
    `cwd:   ${plan.cwd}`,
    `env:   ${plan.envKeys.join(", ") || "(inherited only)"}`,
    `stdin: ${plan.stdin === undefined ? "(none)" : JSON.stringify(plan.stdin)}`,
  ];
  process.stdout.write(`${lines.map((l) => (label ? `[${label}] ${l}` : l)).join("\n")}\n`);
  if (!plan.resolved) log.warn(`${plan.bin} is not installed; the argv shows its bare name`);
}

async function readPrompt(positionals: string[]): Promise<string> {
  const fromStdin = positionals.length === 1 && positionals[0] === "-";
  if (fromStdin && process.stdin.isTTY) log.info("reading the prompt from the terminal; end it with Ctrl-D");
  const prompt = fromStdin ? await Bun.stdin.text() : positionals.join(" ");
  if (!prompt.trim())
    throw new OdError(
      "INVALID_REQUEST",
      fromStdin ? "The prompt read from stdin is empty" : "No prompt given",
      'Pass it as an argument (od run --agent pi "fix the tests") or "-" to read stdin.',
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
