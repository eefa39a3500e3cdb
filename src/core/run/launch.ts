import type { Adapter, Invocation } from "../agents/adapter.ts";
import { startLoop, type Transport } from "../loops/index.ts";
import type { LoopSettings } from "../loops/transport.ts";
import { AgentProcess } from "../os/process.ts";
import { RUN_MARKER } from "../os/reap.ts";
import type { Plan } from "./plan.ts";
import type { ValidRequest } from "./request.ts";

/** How a planned run is started: where the agent runs and how its output comes back. */
type Launcher = (plan: Plan, invocation: Invocation, runId: string) => Transport;

/** A CLI on this machine: spawned without a shell, in its own process group, the prompt on stdin (or framed by its driver). */
const spawnLocal: Launcher = (plan, invocation, runId) => {
  return new AgentProcess({
    cmd: [plan.bin, ...invocation.argv],
    cwd: plan.request.cwd,
    env: { ...plan.env, ...invocation.env, [RUN_MARKER]: runId },
    stdin: plan.driver.keepStdinOpen ? "pipe" : invocation.stdin,
  });
};

/** What od's own loop is told of the request: typed, not flags it would parse back. */
export function loopSettings(request: Pick<ValidRequest, "mode" | "model" | "resume" | "maxTurns">): LoopSettings {
  return { mode: request.mode, model: request.model, resume: request.resume, maxTurns: request.maxTurns };
}

/** od's own loop, in process: its settings as a typed object, its events as bodies. */
const inProcess: Launcher = (plan, invocation) =>
  startLoop(plan.adapter, {
    argv: invocation.argv,
    cwd: plan.request.cwd,
    env: { ...plan.env, ...invocation.env },
    stdin: invocation.stdin,
    settings: loopSettings(plan.request),
  });

/** One row per kind of transport: a new kind (a remote host, a container) is one more row. */
const launchers: Record<Adapter["protocol"]["kind"], Launcher> = {
  lines: spawnLocal,
  driver: spawnLocal,
  loop: inProcess,
};

export function launch(plan: Plan, invocation: Invocation, runId: string): Transport {
  return launchers[plan.adapter.protocol.kind](plan, invocation, runId);
}
