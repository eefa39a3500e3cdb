import type { Adapter, Invocation } from "../contract/adapter.ts";
import type { LoopSettings } from "../contract/loop.ts";
import type { ValidRequest } from "../contract/request.ts";
import { startLoop, type Transport } from "../loops/index.ts";
import { AgentProcess } from "../os/process.ts";
import { RUN_MARKER } from "../os/reap.ts";
import { prepareSandbox, tmpEnv } from "../os/sandbox/wrap.ts";
import { controlDir } from "../remote/control-dir.ts";
import { RemoteProcess } from "../remote/transport.ts";
import type { Plan } from "./plan.ts";

/** How a planned run is started: where the agent runs and how its output comes back. */
type Launcher = (plan: Plan, invocation: Invocation, runId: string) => Transport;

/**
 * A CLI on this machine: spawned without a shell, in its own process group, the prompt on stdin (or
 * framed by its driver); under the kernel sandbox of its mode where the machine has one, with its
 * temp files in a private folder removed when it ends.
 */
const spawnLocal: Launcher = (plan, invocation, runId) => {
  const { sandbox, tmp, stateDirs } = plan.sandbox;
  const prepared = prepareSandbox(sandbox, [plan.bin, ...invocation.argv], tmp, stateDirs);
  try {
    const agent = new AgentProcess({
      cmd: prepared.cmd,
      cwd: plan.request.cwd,
      env: { ...plan.env, ...invocation.env, ...(tmp && sandbox.policy ? tmpEnv(tmp) : {}), [RUN_MARKER]: runId },
      stdin: plan.driver.keepStdinOpen ? "pipe" : invocation.stdin,
    });
    agent.exited.finally(prepared.cleanup);
    return agent;
  } catch (err) {
    prepared.cleanup();
    throw err;
  }
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

/**
 * A CLI on a target (core/remote): the engine's client here (ssh, docker, podman, kubectl), the agent
 * there in a process group of its own, with only the adapter's variables and the run's mark, never
 * this machine's environment. The prompt goes on stdin as for a local CLI.
 */
const onTarget: Launcher = (plan, invocation, runId) =>
  new RemoteProcess({
    target: plan.target!,
    argv: [plan.bin, ...invocation.argv],
    cwd: plan.request.cwd,
    remoteEnv: { ...invocation.env, [RUN_MARKER]: runId },
    localEnv: plan.env,
    stdin: plan.driver.keepStdinOpen ? "pipe" : invocation.stdin,
    engine: { controlDir: controlDir() },
  });

/** One row per kind of transport: a run on a target is one more row. */
const launchers: Record<Adapter["protocol"]["kind"] | "target", Launcher> = {
  lines: spawnLocal,
  driver: spawnLocal,
  loop: inProcess,
  target: onTarget,
};

export function launch(plan: Plan, invocation: Invocation, runId: string): Transport {
  return launchers[plan.target ? "target" : plan.adapter.protocol.kind](plan, invocation, runId);
}
