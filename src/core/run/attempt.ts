import type { Invocation } from "../contract/adapter.ts";
import { OdError } from "../contract/errors.ts";
import type { BodyOf, OdEventBody } from "../contract/events.ts";
import type { RunRequest } from "../contract/request.ts";
import type { Exit } from "../os/process.ts";
import { formatTarget } from "../remote/target.ts";
import { type Drive, drive, errorBody } from "./drive.ts";
import { Held } from "./held.ts";
import { launch } from "./launch.ts";
import { Outcome } from "./outcome.ts";
import { Paragraphs } from "./parts.ts";
import { confirmReady, driverContext, invocationFor, type Plan, planRun } from "./plan.ts";
import type { RunOptions } from "./request.ts";
import { planSandbox, sandboxView } from "./sandbox.ts";
import { type StopReason, Supervisor } from "./supervise.ts";

/** How an attempt ended, as the stages learn it. */
interface Ending {
  exit: Exit;
  stopped?: StopReason;
  degraded: boolean;
  /** The adapter can take the session back with --resume (capabilities.resume): otherwise no run is resumable. */
  canResume: boolean;
}

/**
 * One attempt at a run, as event bodies: plan, place, launch, drive, and end
 * with exactly one `run.finished` body, whatever happens. Breaking out of the
 * iteration cancels the agent and leaves nothing behind. The pipeline stamps
 * the bodies; retries are attempts in a row. Bodies come in arrays: the drive
 * stage's, one per chunk the agent wrote, pass through with `yield*` (one
 * generator step per chunk between the agent and the pipeline); the attempt's
 * own come one to an array, and `run.finished` alone in the last.
 */
export async function* attempt(input: RunRequest, opts: RunOptions): AsyncGenerator<OdEventBody[]> {
  const startedAt = performance.now();
  const outcome = new Outcome();
  const seen = (body: OdEventBody) => {
    outcome.observe(body);
    return body;
  };
  const held = new Held();
  const ending: Ending = { exit: { exitCode: null, signal: null }, degraded: false, canResume: false };
  let kept: string[] = [];
  let driving: Drive | undefined;
  try {
    let plan = await planRun(input, opts);
    ending.canResume = plan.adapter.capabilities.resume;
    await confirmReady(plan);
    const { prompt, notes } = await held.place(plan);
    // Skills whose place was taken fall back to the prompt: the argv follows the prompt actually placed.
    let invocation = prompt === plan.composed ? plan.invocation : invocationFor(plan, prompt, opts.platform);
    const queued = held.queued(opts);
    if (queued) yield [seen(queued)];
    await held.slot(opts);
    if (opts.resolveCwd) ({ plan, invocation } = moveTo(opts.resolveCwd(plan.request.cwd), plan, invocation, prompt, opts));
    held.writeFiles(plan, invocation);
    driving = start(plan, invocation, prompt, opts, held, outcome);
    yield [seen(started(plan, invocation.argv, prompt))];
    for (const note of [...(plan.mcp.note ? [plan.mcp.note] : []), ...setupNotes(invocation), ...notes]) yield [seen(note)];
    ending.exit = yield* drive(driving);
    for (const body of outcome.closeOpenTools()) yield [seen(body)];
    const closing = await closingError(plan, driving.supervisor, outcome, ending.exit, opts.idleTimeoutMs);
    if (closing) yield [seen(closing)];
  } catch (err) {
    const error = OdError.from(err);
    for (const body of outcome.closeOpenTools()) yield [seen(body)];
    if (error.code === "CANCELLED") ending.stopped = "cancelled";
    else yield [seen(errorBody(error))];
  } finally {
    // Read here, not only after a normal end: a throw after a cancel is still a cancel, and a degraded run is never resumable.
    ending.stopped ??= driving?.supervisor.stopped;
    ending.degraded ||= driving?.degraded ?? false;
    kept = await held.release(opts.ladder);
  }
  // A stop that carried a reason (the run service ending a run whose log failed) is that failure, not a cancel.
  const imposed = opts.signal?.reason;
  if (ending.stopped === "cancelled" && imposed instanceof OdError && imposed.code !== "CANCELLED") {
    yield [seen(errorBody(imposed))];
    ending.stopped = undefined;
  }
  for (const path of kept)
    yield [{ type: "status", label: "skill", detail: `${path} was changed during the run, so it is the agent's work and stays` }];
  yield [finished(outcome, ending, startedAt)];
}

/** Launches the plan and opens its session: the transport, the driver's opening messages, the supervisor. */
function start(plan: Plan, invocation: Invocation, prompt: string, opts: RunOptions, held: Held, outcome: Outcome): Drive {
  opts.onLaunch?.();
  const transport = launch(plan, invocation, opts.runId ?? crypto.randomUUID());
  held.transport = transport;
  const { state, send } = plan.driver.start(driverContext(plan, prompt));
  for (const m of send) transport.send(m);
  const supervisor = new Supervisor(transport, {
    signal: opts.signal,
    ladder: opts.ladder,
    timeoutMs: plan.request.timeoutMs,
    idleMs: opts.idleTimeoutMs ?? plan.driver.idleTimeoutMs,
    abortGraceMs: opts.abortGraceMs,
    doneGraceMs: opts.doneGraceMs,
    abort: () => plan.driver.abort(state),
  });
  held.supervisor = supervisor;
  return {
    plan,
    transport,
    supervisor,
    state,
    broker: opts.broker,
    brokerTimeoutMs: opts.brokerTimeoutMs,
    degraded: false,
    outcome,
    paragraphs: new Paragraphs(),
  };
}

/** The plan in the working directory `resolveCwd` gave at launch: the same, or its argv and its sandbox made again for the new one. */
function moveTo(cwd: string, plan: Plan, invocation: Invocation, prompt: string, opts: RunOptions) {
  if (cwd === plan.request.cwd) return { plan, invocation };
  const request = { ...plan.request, cwd };
  const moved = { ...plan, request, sandbox: planSandbox({ adapter: plan.adapter, request, env: plan.env, setting: opts.sandbox }) };
  return { plan: moved, invocation: invocationFor(moved, prompt, opts.platform) };
}

/** The invocation's own notes (a server its CLI could not be given), as status lines. */
function setupNotes(invocation: Invocation): OdEventBody[] {
  return (invocation.notes ?? []).map((n) => ({ type: "status", label: String(n.label), detail: String(n.detail) }));
}

function started(plan: Plan, argv: string[], prompt: string): OdEventBody {
  const { adapter, request, bin } = plan;
  return {
    type: "run.started",
    agent: adapter.id,
    bin,
    argv: [bin, ...argv].map((a) => (a === prompt ? "<prompt>" : a)),
    cwd: request.cwd,
    model: request.model,
    effort: request.effort,
    mode: request.mode,
    ...(plan.target ? { on: formatTarget(plan.target) } : {}),
    sandbox: sandboxView(plan.sandbox.sandbox),
  };
}

/** Why the run failed, when the stream itself did not say: od's clocks, or the exit through the adapter's classifier. */
async function closingError(plan: Plan, supervisor: Supervisor, outcome: Outcome, exit: Exit, idleOverride?: number) {
  const { adapter } = plan;
  if (supervisor.stopped === "timeout")
    return errorBody(
      new OdError(
        "TIMEOUT",
        `${adapter.name} did not finish within ${(plan.request.timeoutMs ?? 0) / 1000} s`,
        "Raise --timeout, or simplify the task.",
      ),
    );
  if (supervisor.stopped === "idle") {
    const seconds = Math.round((idleOverride ?? plan.driver.idleTimeoutMs ?? 0) / 1000);
    return errorBody(
      new OdError("TIMEOUT", `${adapter.name} sent nothing for ${seconds} s`, "The agent looks stuck; try again, or check it by hand."),
    );
  }
  if (supervisor.stopped) return undefined;
  const transport = supervisor.transportTail;
  return outcome.closingError(adapter, supervisor.reaped ? { exitCode: 0, signal: null } : exit, transport);
}

function finished(outcome: Outcome, ending: Ending, startedAt: number): BodyOf<"run.finished"> {
  return {
    type: "run.finished",
    status: ending.stopped === "cancelled" ? "cancelled" : outcome.failed ? "failed" : "succeeded",
    exitCode: ending.exit.exitCode,
    signal: ending.exit.signal,
    durationMs: Math.round(performance.now() - startedAt),
    sessionId: outcome.sessionId,
    resumable: outcome.sessionId !== undefined && outcome.sessionLoadable && !ending.degraded && ending.canResume,
  };
}
