/**
 * What `od run` loads when it starts agents (run.ts plans a dry run without it): one agent rendered
 * as its events come, or several side by side.
 */
import { existsSync } from "node:fs";
import { loadSkills } from "../builtins.ts";
import type { Registry } from "../core/agents/registry.ts";
import { exitCodeFor, OdError, runError } from "../core/contract/errors.ts";
import type { EventOf } from "../core/contract/events.ts";
import type { RunRequest } from "../core/contract/request.ts";
import { cachedSandboxSupport } from "../core/os/sandbox/support-cache.ts";
import { onStopSignals, STOP_SIGNALS, type StopSignal } from "../core/os/stop-signals.ts";
import { viewPlan } from "../core/run/dry-run.ts";
import { planRun } from "../core/run/plan.ts";
import { type Passed, Refusal } from "../core/runs/service.ts";
import { createOd } from "../od.ts";
import { batchedSinks } from "./batched.ts";
import { colorFor } from "./color.ts";
import { compareAgents } from "./compare-args.ts";
import { log } from "./log.ts";
import { stderr, streaming } from "./out.ts";
import { runParallel } from "./parallel-run.ts";
import { createTextRenderer } from "./render.ts";
import { printPlan, type RunArgs } from "./run-args.ts";
import { ttyBroker } from "./tty-broker.ts";

/** One agent, its events rendered as they come; the exit code says how it ended. */
export async function runOne(request: RunRequest, args: RunArgs, opts: { registry: Registry; attempts: number }): Promise<number> {
  const controller = new AbortController();
  // Output that cannot be written (a full disk) cancels the run: it ends as od's error (STORAGE, exit 74).
  const sinks = batchedSinks(streaming("stdout"), streaming("stderr"), (err) => controller.abort(err));
  // Ctrl-C, a hangup (the terminal closed) and SIGTERM all cancel; the exit code names the first.
  let stoppedBy: StopSignal | undefined;
  const offStop = onStopSignals((signal, count) => {
    stoppedBy ??= signal;
    if (count > 1) {
      sinks.flush();
      process.exit(STOP_SIGNALS[stoppedBy]); // a second one while the ladder runs: leave now
    }
    controller.abort();
  });
  const color = colorFor(stderr);
  // --json prints each event's line as the run log has it (made once, for both).
  const text = args.json ? undefined : createTextRenderer(sinks.out, sinks.err, color, { result: Boolean(args.result) });
  const render = text ? (p: Passed) => text(p.event) : (p: Passed) => sinks.out.write(`${p.json}\n`);
  let runFailure: EventOf<"error"> | undefined;
  let finished: EventOf<"run.finished"> | undefined;
  const broker = args.ask && stderr.isTTY && existsSync("/dev/tty") ? ttyBroker(sinks.err) : undefined;
  if (args.ask && !broker) log.warn("--ask needs a terminal; the mode's policy decides instead");
  // A run of od's run service, kept in OD_HOME/runs like every surface's; a run refused before it started is an error, not history.
  const od = await createOd({ registry: opts.registry, recording: "best-effort", warn: (message) => log.warn(message), maxRuns: 1 });
  try {
    const run = await od.runs
      .start(request, {
        origin: "cli",
        signal: controller.signal,
        broker,
        retry: { attempts: opts.attempts },
        // The changed files and their diff are shown with --result and printed with --json; plain text needs neither walk.
        changes: Boolean(args.json || args.result),
      })
      .catch((err) => {
        // Refused before it started: no run of the history, but shown as a run's end is (its error; --json: its events).
        if (!(err instanceof Refusal)) throw err;
        return {
          passed: async function* () {
            yield err.events.map((event) => ({ event, json: JSON.stringify(event) }));
          },
        };
      });
    for await (const passed of run.passed())
      for (const p of passed) {
        const event = p.event;
        if (event.type === "error") runFailure = runError(runFailure, event);
        if (event.type === "run.finished") finished = event;
        render(p);
      }
  } finally {
    await sinks.drained();
  }
  offStop();
  if (finished?.status === "cancelled") return STOP_SIGNALS[stoppedBy ?? "SIGINT"];
  if (finished?.status !== "succeeded") return runFailure ? exitCodeFor(runFailure.code) : 1;
  return 0;
}

/** `--agent a,b,c`: side by side, each in a private copy. A session, a role and terminal questions each belong to one agent. */
export async function runSeveral(args: RunArgs, base: Omit<RunRequest, "agent">, registry: Registry, attempts: number): Promise<void> {
  const agents = await compareAgents(args, registry);
  for (const [flag, given] of [
    ["--resume", args.resume],
    ["--role", args.role],
    ["--ask", args.ask],
  ] as const)
    if (given)
      throw new OdError(
        "INVALID_REQUEST",
        `${flag} applies to one agent run, not to several (${args.repeat === undefined ? `--agent ${args.agent}` : `--repeat ${args.repeat}`})`,
        "Run each agent on its own for that.",
      );
  if (args["dry-run"]) {
    for (const agent of agents)
      await printPlan(
        viewPlan(await planRun({ ...base, agent }, { registry, skills: () => loadSkills(), sandboxSupport: () => cachedSandboxSupport() })),
        Boolean(args.json),
        agent,
      );
    return;
  }
  const controller = new AbortController();
  let stoppedBy: StopSignal | undefined;
  onStopSignals((signal, count) => {
    stoppedBy ??= signal;
    if (count > 1) process.exit(STOP_SIGNALS[stoppedBy]); // a second one: leave now (every agent's group still goes)
    controller.abort();
  });
  const color = colorFor(stderr);
  const code = await runParallel(agents, base, { registry, json: Boolean(args.json), signal: controller.signal, color, attempts });
  process.exitCode = code === 130 && stoppedBy ? STOP_SIGNALS[stoppedBy] : code;
}
