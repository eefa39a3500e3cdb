import { statSync } from "node:fs";
import { resolve } from "node:path";
import { z } from "zod";
import type { Adapter } from "../agents/adapter.ts";
import { probeAuth } from "../agents/detect.ts";
import { cachedDetection } from "../agents/detect-cache.ts";
import type { Registry } from "../agents/registry.ts";
import { useRole } from "../agents/roles.ts";
import { isFinal, OdError } from "../errors.ts";
import { createStamper, Mode, type OdEvent, type OdEventBody } from "../events.ts";
import { isLoop, startLoop, type Transport } from "../loops/index.ts";
import { guardCommandLineBudget, guardPromptArgBudget } from "../os/budget.ts";
import { untilExit } from "../os/exit-cleanup.ts";
import { AgentProcess, type Exit, type Ladder } from "../os/process.ts";
import { PLANNED_PROMPT_FILE, writePromptFile } from "../os/prompt-file.ts";
import { resolveExecutable } from "../os/resolve.ts";
import { driverFor } from "../protocols/index.ts";
import { finishing, interpret } from "../protocols/interpret.ts";
import { type AppliedSkills, applySkills } from "../skills/apply.ts";
import { loadSkills, type Skill, type SkillCatalog } from "../skills/catalog.ts";
import { type ImageInput, loadImages } from "./images.ts";
import { Outcome } from "./outcome.ts";
import { type Broker, decisionEvent, requestEvent, settle } from "./permissions.ts";
import type { Slots } from "./slots.ts";

/**
 * A value od hands a CLI as a flag's argument (a model, a session id, a role, a tool). One that
 * starts with "-" is refused: many CLIs' parsers read it as a flag of its own (`--model --yolo`),
 * which would give the agent more authority than the mode asked for.
 */
const FlagValue = z
  .string()
  .min(1)
  .refine((v) => !v.startsWith("-"), "must not start with '-' (a CLI would read it as a flag of its own)");

export const RunRequest = z.object({
  agent: z.string().min(1),
  prompt: z.string().refine((p) => p.trim().length > 0, "the prompt is empty"),
  cwd: z.string().min(1).optional(),
  mode: Mode.default("edit"),
  model: FlagValue.optional(),
  effort: FlagValue.optional(),
  resume: FlagValue.optional(),
  timeoutMs: z.number().int().positive().optional(),
  /** Skills by name (`od skills` lists them). */
  skills: z.array(z.string().min(1)).default([]),
  /** Tools the agent may use without asking (passed to CLIs that take such a list). */
  allowedTools: z.array(FlagValue).default([]),
  /** A cap on the agent's turns (passed to CLIs that take one). */
  maxTurns: z.number().int().positive().optional(),
  /** A role defined with `od init` for this agent. */
  role: FlagValue.optional(),
  /** Image files to send with the prompt, for agents that accept images natively. */
  images: z.array(z.string().min(1)).default([]),
});
export type RunRequest = z.input<typeof RunRequest>;

export interface RunOptions {
  signal?: AbortSignal;
  registry?: Registry;
  env?: Record<string, string | undefined>;
  runId?: string;
  ladder?: Ladder;
  /** After a protocol abort or a final error, how long the agent gets to end on its own before signals. */
  abortGraceMs?: number;
  /** After a driver reports the turn done, how long the agent gets to exit on its own. */
  doneGraceMs?: number;
  /** The OS whose command-line limits apply (default: this one); tests apply Windows limits on Linux with it. */
  platform?: NodeJS.Platform;
  /** Bounded concurrency: the run waits (and says so) until a slot is free. */
  slots?: Slots;
  /** Someone to ask about the agent's permission requests; without one the mode's policy decides. */
  broker?: Broker;
  /** How long a broker may take before the request is denied. */
  brokerTimeoutMs?: number;
  /** Overrides the driver's stage watchdog (no output for this long ends the run). */
  idleTimeoutMs?: number;
  /** The skills to choose from (default: bundled, ~/.open-design/skills). */
  skills?: SkillCatalog | (() => Promise<SkillCatalog>);
}

/**
 * The pipeline: validate, resolve, invoke, spawn, parse, and end with exactly
 * one `run.finished`, whatever happens. Breaking out of the iteration cancels
 * the run and leaves no process behind.
 */
export async function* runAgent(input: RunRequest, opts: RunOptions = {}): AsyncGenerator<OdEvent> {
  const stamp = createStamper(opts.runId ?? crypto.randomUUID());
  const started = performance.now();
  const outcome = new Outcome();
  let exit: Exit = { exitCode: null, signal: null };
  let stopped: "cancelled" | "timeout" | "idle" | "final" | undefined;
  /** The turn was done and the agent did not exit within the grace, so od ended it: how it died is od's doing. */
  let reaped = false;
  /** The agent printed broken structured output: its text is salvaged, resume and relayed approvals are off. */
  let degraded = false;
  const emit = (body: OdEventBody): OdEvent => {
    const event = stamp(body);
    outcome.observe(event);
    return event;
  };

  let proc: Transport | undefined;
  let release: (() => void) | undefined;
  let applied: AppliedSkills | undefined;
  let kept: string[] = [];
  let promptFile: ReturnType<typeof writePromptFile> | undefined;
  const timers: Array<ReturnType<typeof setTimeout>> = [];
  const later = (f: () => unknown, ms: number) => timers.push(setTimeout(f, ms));
  const forget = untilExit(() => {
    if (proc instanceof AgentProcess) proc.killNow();
    applied?.undo();
    promptFile?.remove();
  });
  try {
    const { adapter, request, skills, images, trusted } = await prepare(input, opts);
    if (skills.length) {
      applied = await applySkills(skills, adapter, request.cwd, request.prompt);
      request.prompt = applied.prompt;
    }
    // A loop inside od has no executable to resolve, and no cached CLI facts.
    const bin = isLoop(adapter) ? adapter.bin : resolveExecutable(adapter, opts.env ?? process.env).path;
    const known = isLoop(adapter) ? {} : await knownFacts(adapter, bin, opts.env ?? process.env);
    if (opts.slots) {
      release = opts.slots.tryAcquire();
      if (!release) {
        yield emit({
          type: "status",
          label: "queued",
          detail: `waiting for a free run slot (${opts.slots.running} of ${opts.slots.limit} in use)`,
        });
        release = await opts.slots.acquire(opts.signal);
      }
    }
    if (opts.signal?.aborted) throw new OdError("CANCELLED", "Cancelled before the agent started");
    const driver = driverFor(adapter);
    const ctx = { ...request, images, agent: { name: adapter.name, login: adapter.login }, options: driverOptions(adapter) };
    if (adapter.prompt.via === "file") promptFile = writePromptFile(request.prompt);
    const invocation = adapter.invoke({ ...request, bin, flags: known.flags, promptFile: promptFile?.path });
    const env = { ...(opts.env ?? process.env), ...invocation.env };
    guardCommandLineBudget(adapter, bin, invocation.argv, { platform: opts.platform, env });
    proc = isLoop(adapter)
      ? startLoop(adapter, { argv: invocation.argv, cwd: request.cwd, env, stdin: invocation.stdin })
      : new AgentProcess({
          cmd: [bin, ...invocation.argv],
          cwd: request.cwd,
          env,
          stdin: driver.keepStdinOpen ? "pipe" : invocation.stdin,
        });
    yield emit({
      type: "run.started",
      agent: adapter.id,
      bin,
      argv: [bin, ...invocation.argv].map((a) => (a === request.prompt ? "<prompt>" : a)),
      cwd: request.cwd,
      model: request.model,
      effort: request.effort,
      mode: request.mode,
    });
    for (const note of applied?.notes ?? []) yield emit(note);

    const { state, send } = driver.start(ctx);
    for (const m of send) proc.send(m);

    const running = proc;
    const stopping = new AbortController(); // a question to the user waits no longer than the run
    const stop = (why: NonNullable<typeof stopped>) => {
      if (stopped) return;
      stopped = why;
      stopping.abort();
      const abort = safe(() => driver.abort(state), []);
      for (const m of abort) running.send(m);
      // A protocol abort, or a final error (the agent may still print its result and exit by itself),
      // gets a grace period before signals; a user's cancel without a protocol abort is immediate.
      later(() => running.cancel(opts.ladder), abort.length || why === "final" ? (opts.abortGraceMs ?? 1000) : 0);
    };
    const onAbort = () => stop("cancelled");
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    if (request.timeoutMs) later(() => stop("timeout"), request.timeoutMs);

    // The stage watchdog of drivers that declare one: silence for too long ends the run.
    let idle: ReturnType<typeof setTimeout> | undefined;
    const idleMs = opts.idleTimeoutMs ?? driver.idleTimeoutMs;
    const armIdle = () => {
      clearTimeout(idle);
      if (idleMs) idle = setTimeout(() => stop("idle"), idleMs);
    };
    armIdle();
    try {
      for await (const frame of proc.lines()) {
        armIdle();
        if (frame.kind === "too-large") {
          yield emit(tooLarge(frame.bytes));
          continue;
        }
        const step = interpret(driver, state, frame.text, !trusted);
        if (step.malformed && !degraded) {
          degraded = true;
          yield emit({
            type: "status",
            label: "degraded",
            detail: `${adapter.name} printed malformed output; its text is kept as plain text, and resume and relayed approvals are off for this run`,
          });
        }
        for (const body of step.events) {
          const event = emit(afterStop(body, stopped));
          yield event;
          // A rejected login never heals: stop now rather than sit through the CLI's own retries.
          if (event.type === "error" && isFinal(event.code)) stop("final");
        }
        for (const m of step.send ?? []) proc.send(m);
        for (const ask of step.asks ?? []) {
          yield emit(requestEvent(ask));
          const settled = stopped
            ? { decision: "deny" as const, by: "policy" as const, reason: "the run is stopping" }
            : await settle(ask, request.mode, request.cwd, degraded ? undefined : opts.broker, opts.brokerTimeoutMs, stopping.signal);
          yield emit(decisionEvent(ask, settled));
          for (const m of ask.reply(settled.decision)) proc.send(m);
        }
        if (step.done) {
          proc.closeStdin();
          later(async () => {
            if (!(await isRunning(running))) return; // it left by itself: its exit is its own
            reaped = true;
            await running.cancel(opts.ladder);
          }, opts.doneGraceMs ?? 3000);
        }
      }
      for (const body of finishing(driver, state, !trusted)) yield emit(body);
      exit = await proc.exited;
    } finally {
      clearTimeout(idle);
      opts.signal?.removeEventListener("abort", onAbort);
    }

    for (const body of outcome.closeOpenTools()) yield emit(body);
    if (stopped === "timeout") {
      yield emit(
        errorBody(
          new OdError("TIMEOUT", `${adapter.name} did not finish within ${request.timeoutMs} ms`, "Raise --timeout, or simplify the task."),
        ),
      );
    } else if (stopped === "idle") {
      yield emit(
        errorBody(
          new OdError(
            "TIMEOUT",
            `${adapter.name} sent nothing for ${Math.round((opts.idleTimeoutMs ?? driver.idleTimeoutMs ?? 0) / 1000)} s`,
            "The agent looks stuck; try again, or check it by hand.",
          ),
        ),
      );
    } else if (!stopped) {
      const closing = await outcome.closingError(adapter, reaped ? { exitCode: 0, signal: null } : exit, () => running.stderrTail());
      if (closing) yield emit(closing);
    }
  } catch (err) {
    for (const body of outcome.closeOpenTools()) yield emit(body);
    const error = OdError.from(err);
    if (error.code === "CANCELLED") stopped = "cancelled";
    else yield emit(errorBody(error));
  } finally {
    for (const t of timers) clearTimeout(t);
    // Reached on a normal end, and also when the consumer stops iterating early.
    if (proc && (await isRunning(proc))) await proc.cancel(opts.ladder);
    release?.();
    kept = applied?.undo() ?? []; // even after a failure or a cancel: the user's folder is left as it was
    try {
      promptFile?.remove();
    } catch {}
    forget(); // last: an exit during the cancel ladder above still cleans up
  }
  for (const path of kept)
    yield emit({ type: "status", label: "skill", detail: `${path} was changed during the run, so it is the agent's work and stays` });

  const status = stopped === "cancelled" ? "cancelled" : outcome.failed ? "failed" : "succeeded";
  yield stamp({
    type: "run.finished",
    status,
    exitCode: exit.exitCode,
    signal: exit.signal,
    durationMs: Math.round(performance.now() - started),
    sessionId: outcome.sessionId,
    resumable: outcome.sessionId !== undefined && !degraded,
  });
}

/**
 * What detection already knows (from its cache; nothing is probed on the happy
 * path): the CLI's optional flags, and whether it is logged out. A cached
 * "missing" login is confirmed with the auth probe before the run is refused.
 */
async function knownFacts(
  adapter: Adapter,
  bin: string,
  env: Record<string, string | undefined>,
): Promise<{ flags?: ReadonlySet<string> }> {
  const cached = cachedDetection(adapter, env);
  if (cached?.auth === "missing" && (await probeAuth(adapter, bin, env)) === "missing")
    throw new OdError(
      "AGENT_AUTH_REQUIRED",
      `${adapter.name} is not logged in`,
      adapter.login ? `Log in: ${adapter.login}` : `Log in to ${adapter.name}.`,
    );
  return { flags: cached?.flags ? new Set(cached.flags) : undefined };
}

/** Everything that can fail before a process exists, in the order a user would fix it; it writes nothing. */
async function prepare(input: RunRequest, opts: RunOptions) {
  const parsed = RunRequest.safeParse(input);
  if (!parsed.success) throw new OdError("INVALID_REQUEST", z.prettifyError(parsed.error), "See `od run --help`.");
  const request = { ...parsed.data, cwd: resolve(parsed.data.cwd ?? process.cwd()) };
  if (request.model === "default") request.model = undefined;
  const registry = opts.registry;
  if (!registry) throw new OdError("INTERNAL", "A run needs a registry of adapters", "Load one with loadRegistry() from od.");
  const entry = registry.get(request.agent);
  if (!entry) {
    const known = registry
      .list()
      .map((e) => e.adapter.id)
      .join(", ");
    throw new OdError("AGENT_UNKNOWN", `No adapter named "${request.agent}"`, `Known agents: ${known}. See \`od plugins\`.`);
  }
  const adapter: Adapter = entry.adapter;
  checkEffort(adapter, request.effort);
  if (!isDirectory(request.cwd))
    throw new OdError("INVALID_REQUEST", `Working directory does not exist: ${request.cwd}`, "Pass an existing directory with --cwd.");
  if (request.mode === "read-only" && !adapter.capabilities.readOnly)
    throw new OdError(
      "INVALID_REQUEST",
      `${adapter.name} has no read-only mode od can enforce`,
      "Use --mode edit, or pick an agent with a read-only mode.",
    );
  if (request.mode === "edit" && !adapter.capabilities.edit)
    throw new OdError(
      "INVALID_REQUEST",
      `${adapter.name} cannot be held to edits: headless, it runs every tool without asking`,
      "Use --mode full if that is what you want, or pick another agent.",
    );
  if (request.resume && !adapter.capabilities.resume)
    throw new OdError("INVALID_REQUEST", `${adapter.name} cannot resume a session through od`, "Start a new run without --resume.");
  checkPassThrough(adapter, request, registry);
  if (request.role) {
    const { promptPrefix } = useRole(adapter, request.cwd, request.role);
    if (promptPrefix) request.prompt = `${promptPrefix}\n\n${request.prompt}`;
  }
  const skills = await resolveSkills(request.skills, opts);
  // The prompt the agent will get (skills composed in), for the budget guard; nothing is placed yet.
  const composed = skills.length
    ? (await applySkills(skills, adapter, request.cwd, request.prompt, { dryRun: true })).prompt
    : request.prompt;
  guardPromptArgBudget(adapter, composed, opts.platform);
  const images = request.images.length ? checkImages(adapter, request.images, request.cwd, registry) : [];
  // A built-in's events are held to the schema by the conformance suite and the goldens; a plugin's are checked live.
  const trusted = entry.source === "builtin";
  return { adapter, request, skills, composed, images, trusted };
}

/** --allowed-tools and --max-turns go only to CLIs that take them, and pre-approved tools never to a read-only run. */
function checkPassThrough(
  adapter: Adapter,
  request: { allowedTools: string[]; maxTurns?: number; mode: string },
  registry: Registry,
): void {
  const others = (cap: "allowedTools" | "maxTurns") =>
    registry
      .list()
      .filter((e) => e.adapter.capabilities[cap])
      .map((e) => e.adapter.id)
      .join(", ") || "none";
  if (request.allowedTools.length && !adapter.capabilities.allowedTools)
    throw new OdError("INVALID_REQUEST", `${adapter.name} takes no list of allowed tools`, `Agents that do: ${others("allowedTools")}.`);
  if (request.allowedTools.length && request.mode === "read-only")
    throw new OdError(
      "INVALID_REQUEST",
      "Pre-approved tools would give a read-only run more than it may do",
      "Use --mode edit, or drop --allowed-tools.",
    );
  if (request.maxTurns !== undefined && !adapter.capabilities.maxTurns)
    throw new OdError("INVALID_REQUEST", `${adapter.name} takes no turn limit`, `Agents that do: ${others("maxTurns")}.`);
}

/** Images only where the adapter sends them natively; never silently dropped. */
function checkImages(adapter: Adapter, paths: string[], cwd: string, registry: Registry): ImageInput[] {
  if (!adapter.capabilities.images) {
    const takers = registry
      .list()
      .filter((e) => e.adapter.capabilities.images)
      .map((e) => e.adapter.id);
    throw new OdError(
      "INVALID_REQUEST",
      `${adapter.name} cannot take images through od`,
      takers.length ? `Agents that accept images: ${takers.join(", ")}.` : "No installed adapter accepts images.",
    );
  }
  return loadImages(paths, cwd);
}

async function resolveSkills(names: string[], opts: RunOptions): Promise<Skill[]> {
  if (!names.length) return [];
  const catalog =
    typeof opts.skills === "function" ? await opts.skills() : (opts.skills ?? (await loadSkills([], opts.env ?? process.env)));
  const unknown = names.filter((s) => !catalog.skills.has(s));
  if (unknown.length)
    throw new OdError(
      "INVALID_REQUEST",
      `Unknown skill${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}`,
      `Available: ${[...catalog.skills.keys()].join(", ") || "none"} (see \`od skills\`).`,
    );
  return names.map((s) => catalog.skills.get(s)!);
}

/** What `runAgent` would spawn, without spawning: for `--dry-run`. */
export interface RunPlan {
  agent: string;
  bin: string;
  /** False when the executable is not installed: `bin` is then the bare name. */
  resolved: boolean;
  argv: string[];
  cwd: string;
  mode: string;
  /** Names only: values may be secrets. */
  envKeys: string[];
  /** Exactly what goes to stdin: the prompt, or the protocol's opening messages as JSON lines. */
  stdin?: string;
  /** For CLIs that read the prompt from a file: where it would be written, and what. */
  promptFile?: { path: string; content: string };
}

export async function planRun(input: RunRequest, opts: RunOptions = {}): Promise<RunPlan> {
  const { adapter, request, composed, images } = await prepare(input, opts);
  request.prompt = composed;
  let bin = adapter.bin;
  let resolved = true;
  try {
    if (!isLoop(adapter)) bin = resolveExecutable(adapter, opts.env ?? process.env).path;
  } catch {
    resolved = false;
  }
  const cachedFlags = resolved ? cachedDetection(adapter, opts.env ?? process.env)?.flags : undefined;
  const promptFile = adapter.prompt.via === "file" ? PLANNED_PROMPT_FILE : undefined;
  const invocation = adapter.invoke({ ...request, bin, flags: cachedFlags ? new Set(cachedFlags) : undefined, promptFile });
  if (resolved)
    guardCommandLineBudget(adapter, bin, invocation.argv, {
      platform: opts.platform,
      env: { ...(opts.env ?? process.env), ...invocation.env },
    });
  const driver = driverFor(adapter);
  const opening = driver.start({
    ...request,
    images,
    agent: { name: adapter.name, login: adapter.login },
    options: driverOptions(adapter),
  }).send;
  return {
    agent: adapter.id,
    bin,
    resolved,
    argv: [bin, ...invocation.argv],
    cwd: request.cwd,
    mode: request.mode,
    envKeys: Object.keys(invocation.env ?? {}),
    stdin: driver.keepStdinOpen ? opening.map((m) => JSON.stringify(m)).join("\n") : invocation.stdin,
    ...(promptFile ? { promptFile: { path: promptFile, content: request.prompt } } : {}),
  };
}

function checkEffort(adapter: Adapter, effort: string | undefined): void {
  if (effort === undefined || adapter.efforts.includes(effort)) return;
  throw new OdError(
    "MODEL_NOT_AVAILABLE",
    adapter.efforts.length ? `${adapter.name} has no effort "${effort}"` : `${adapter.name} has no effort setting`,
    adapter.efforts.length ? `Valid efforts: ${adapter.efforts.join(", ")}.` : "Run without --effort.",
  );
}

/** Once od has stopped a run its outcome is decided: the agent's dying words are kept as status, not as new errors. */
function afterStop(body: OdEventBody, stopped: string | undefined): OdEventBody {
  if (!stopped || body.type !== "error") return body;
  return { type: "status", label: "agent error after stop", detail: `${body.code}: ${body.message}` };
}

function tooLarge(bytes: number): OdEventBody {
  return errorBody(
    new OdError(
      "OUTPUT_LINE_TOO_LARGE",
      `Dropped one output line of ${bytes} bytes (over the line limit)`,
      "The agent printed an oversized record; the rest of the run continues.",
    ),
  );
}

function errorBody(err: OdError): OdEventBody {
  return { type: "error", ...err.toJSON() };
}

function safe<T>(f: () => T, fallback: T): T {
  try {
    return f();
  } catch {
    return fallback;
  }
}

function driverOptions(adapter: Adapter): Record<string, unknown> | undefined {
  return adapter.protocol.kind === "driver" ? adapter.protocol.options : undefined;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

async function isRunning(proc: Transport): Promise<boolean> {
  const done = await Promise.race([proc.exited.then(() => true), Bun.sleep(0).then(() => false)]);
  return !done;
}
