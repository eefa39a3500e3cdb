import { resolve } from "node:path";
import { probeAuth } from "../agents/detect.ts";
import { cachedDetection } from "../agents/detect-cache.ts";
import { driverFor } from "../agents/driver-for.ts";
import { callPlugin } from "../agents/plugin-error.ts";
import { useRole } from "../agents/roles.ts";
import type { Adapter, Invocation } from "../contract/adapter.ts";
import { OdError } from "../contract/errors.ts";
import type { ImageInput } from "../contract/request.ts";
import { RunRequest, type ValidRequest } from "../contract/request.ts";
import { type CheckedRequest, plainRequest } from "../contract/request-plain.ts";
import { z } from "../contract/zod.ts";
import { guardCommandLineBudget, guardPromptArgBudget } from "../os/budget.ts";
import { plannedPromptFile } from "../os/private-files.ts";
import { resolveExecutable } from "../os/resolve.ts";
import { didYouMean } from "../os/suggest.ts";
import type { Driver, DriverContext } from "../protocols/driver.ts";
import type { Target } from "../remote/target.ts";
import { applySkills } from "../skills/apply.ts";
import type { Skill } from "../skills/catalog.ts";
import { checkImages, checkModel, checkRequest, resolveSkills } from "./checks.ts";
import { type McpPlan, planMcp } from "./mcp.ts";
import { remoteAdapter, remoteTarget } from "./remote-plan.ts";
import type { Env, RunOptions } from "./request.ts";
import { planSandbox, type SandboxPlan } from "./sandbox.ts";

/**
 * Everything decided before anything is written or spawned: the adapter, the
 * validated request, the skills, the executable, the argv. `--dry-run` prints
 * this value; a run launches it. Making one writes nothing and spawns nothing.
 */
export interface Plan {
  adapter: Adapter;
  request: ValidRequest;
  skills: Skill[];
  /** The prompt the agent gets, skills composed in (for the budget guard and --dry-run). */
  composed: string;
  images: ImageInput[];
  /** A built-in's events are held to the schema by the conformance suite and the goldens; a plugin's are checked live. */
  trusted: boolean;
  bin: string;
  /** Where the agent runs when not on this machine. */
  target?: Target;
  /** False when the executable is not installed: `bin` is then the bare name. */
  resolved: boolean;
  /** The CLI's optional flags, as detection last saw them. */
  flags?: ReadonlySet<string>;
  driver: Driver;
  /** For CLIs that read the prompt from a file: where it goes (written at launch). */
  promptFile?: string;
  /** The MCP servers the agent gets, and where their files go; or the note that it gets none. */
  mcp: McpPlan;
  invocation: Invocation;
  env: Env;
  /** What holds the mode besides the CLI's flags (the kernel, where it can), and what it lets the agent write. */
  sandbox: SandboxPlan;
}

/** A request the plain check leaves to the schema: zod's answer, or why it refuses it. */
function checked(input: RunRequest): CheckedRequest {
  const parsed = RunRequest.safeParse(input, { jitless: true }); // once per run: no parser compiled for it
  if (!parsed.success) throw new OdError("INVALID_REQUEST", z.prettifyError(parsed.error), "See `od run --help`.");
  return parsed.data;
}

export async function planRun(input: RunRequest, opts: RunOptions): Promise<Plan> {
  const asked = plainRequest(input) ?? checked(input);
  const { registry } = opts;
  const env = opts.env ?? process.env;
  const entry = registry.get(asked.agent);
  if (!entry) {
    const known = registry.list().map((e) => e.adapter.id);
    const guess = didYouMean(asked.agent, known);
    throw new OdError(
      "AGENT_UNKNOWN",
      `No adapter named "${asked.agent}"`,
      `${guess}Known agents: ${known.join(", ")}. See \`od plugins\`.`,
    );
  }
  // On a target: its working directory (absolute, or "" for the login directory), skills in the prompt.
  const target = remoteTarget(entry.adapter, asked);
  const adapter = target ? remoteAdapter(entry.adapter, target) : entry.adapter;
  const cwd = target ? (asked.cwd ?? "") : resolve(asked.cwd ?? process.cwd());
  const request: ValidRequest = { ...asked, cwd };
  if (request.model === "default") request.model = undefined;
  const sandbox = planSandbox({ adapter, request, env, setting: opts.sandbox, support: opts.sandboxSupport });
  checkRequest(adapter, request, registry, sandbox.sandbox);
  // What detection last saw (cached; nothing is probed here): the CLI's flags. A named model
  // is checked against the catalog: the cached one, else fetched once (bounded) and cached.
  // This machine's detection says nothing about a target's CLI.
  const detection = adapter.protocol.kind === "loop" || target ? undefined : cachedDetection(adapter, env);
  await checkModel(adapter, request.model, detection, env);
  if (request.role) {
    const { promptPrefix } = useRole(adapter, request.cwd, request.role);
    if (promptPrefix) request.prompt = `${promptPrefix}\n\n${request.prompt}`;
  }
  const skills = await resolveSkills(request.skills, opts, env);
  // The prompt the agent will get (skills composed in), for the budget guard; nothing is placed yet.
  const composed = skills.length
    ? (await applySkills(skills, adapter, request.cwd, request.prompt, { dryRun: true })).prompt
    : request.prompt;
  guardPromptArgBudget(adapter, composed, opts.platform);
  const images = checkImages(adapter, request, registry);
  // A target's CLI is found by the target's PATH.
  const { bin, resolved } = target ? { bin: adapter.bin, resolved: true } : executable(adapter, env);
  const cached = resolved ? detection?.flags : undefined;
  const plan: Omit<Plan, "invocation"> = {
    adapter,
    request,
    skills,
    composed,
    images,
    trusted: entry.source === "builtin",
    target,
    bin,
    resolved,
    flags: cached ? new Set(cached) : undefined,
    driver: driverFor(adapter, entry.source),
    promptFile: adapter.prompt.via === "file" ? plannedPromptFile() : undefined,
    mcp: planMcp(adapter, request),
    env,
    sandbox,
  };
  return { ...plan, invocation: invocationFor(plan, composed, opts.platform) };
}

/** The adapter's argv for this prompt, within the platform's command-line budget. */
export function invocationFor(plan: Omit<Plan, "invocation">, prompt: string, platform?: NodeJS.Platform): Invocation {
  const { adapter, request, bin } = plan;
  const mode = plan.sandbox.cliMode ?? request.mode;
  const tmpDir = plan.sandbox.sandbox.policy ? plan.sandbox.tmp : undefined;
  const { given, filesDir } = plan.mcp;
  const mcp = given.length ? { mcpServers: given, filesDir } : { mcpServers: undefined };
  const files = { promptFile: plan.promptFile, tmpDir };
  const invoke = () => adapter.invoke({ ...request, ...mcp, mode, prompt, bin, flags: plan.flags, ...files });
  const invocation = callPlugin(adapter, plan.trusted, "invoke()", invoke);
  if (plan.resolved && !plan.target)
    guardCommandLineBudget(adapter, bin, invocation.argv, { platform, env: { ...plan.env, ...invocation.env } });
  return invocation;
}

/** What the session driver is told about the run. */
export function driverContext(plan: Plan, prompt = plan.composed): DriverContext {
  const { adapter, request } = plan;
  const options = adapter.protocol.kind === "driver" ? adapter.protocol.options : undefined;
  // The session mode the agent is put in follows the CLI's flags (cliMode); od's own policy answers by the run's mode.
  const session = plan.sandbox.cliMode ? { sessionMode: plan.sandbox.cliMode } : {};
  const agent = { name: adapter.name, login: adapter.login };
  return { ...request, ...session, prompt, images: plan.images, mcpServers: plan.mcp.given, agent, options };
}

/**
 * Before anything is placed or queued: the CLI is installed (else its
 * not-installed error, with the install hint), and a cached "logged out" is
 * confirmed with the auth probe before the run is refused (nothing is probed
 * on the happy path).
 */
export async function confirmReady(plan: Plan): Promise<void> {
  const { adapter } = plan;
  if (adapter.protocol.kind === "loop" || plan.target) return; // a target's CLI answers for itself when it starts
  if (!plan.resolved) resolveExecutable(adapter, plan.env); // throws AGENT_NOT_FOUND with its hint
  if (cachedDetection(adapter, plan.env)?.auth !== "missing") return;
  if ((await probeAuth(adapter, plan.bin, plan.env)) !== "missing") return;
  throw new OdError(
    "AGENT_AUTH_REQUIRED",
    `${adapter.name} is not logged in`,
    adapter.login ? `Log in: ${adapter.login}` : `Log in to ${adapter.name}.`,
  );
}

/** A loop inside od has no executable; a CLI that is not installed keeps its bare name (a dry run still shows the argv). */
function executable(adapter: Adapter, env: Env): { bin: string; resolved: boolean } {
  if (adapter.protocol.kind === "loop") return { bin: adapter.bin, resolved: true };
  try {
    return { bin: resolveExecutable(adapter, env).path, resolved: true };
  } catch {
    return { bin: adapter.bin, resolved: false };
  }
}
