/**
 * How an agent loop inside od plugs into the pipeline: the registry of loops
 * by name (resolved like protocol drivers), the transport the pipeline starts
 * where it would spawn, the driver that passes the loop's events through, and
 * detection for an adapter that has no executable.
 */

import type { Adapter } from "../agents/adapter.ts";
import type { Detection } from "../agents/detect.ts";
import { apiLoop } from "../api/loop.ts";
import { OdError } from "../errors.ts";
import { OdEvent, type OdEventBody } from "../events.ts";
import { defineDriver } from "../protocols/driver.ts";
import { VERSION } from "../version.ts";
import { type Env, type Loop, LoopProcess, type LoopSpec } from "./transport.ts";

export { type Loop, type LoopContext, LoopProcess, type Transport } from "./transport.ts";

/** The loops od owns, by name; an adapter with a loop protocol names one of these. */
export const loops: Record<string, Loop> = { [apiLoop.name]: apiLoop };

export function isLoop(adapter: Pick<Adapter, "protocol">): boolean {
  return adapter.protocol.kind === "loop";
}

export function loopFor(adapter: Pick<Adapter, "id" | "protocol">): Loop {
  const name = adapter.protocol.kind === "loop" ? adapter.protocol.loop : "";
  const loop = loops[name];
  if (!loop)
    throw new OdError(
      "INTERNAL",
      `Adapter ${adapter.id} asks for an unknown agent loop "${name}"`,
      `Known loops: ${Object.keys(loops).join(", ")}.`,
    );
  return loop;
}

/** Where the pipeline would spawn: start the adapter's loop with the invocation instead. */
export function startLoop(adapter: Pick<Adapter, "id" | "protocol">, spec: LoopSpec): LoopProcess {
  return new LoopProcess(loopFor(adapter), spec);
}

/** Silence this long from a loop (no event at all, not even a retry notice) ends the run as stuck. */
export const LOOP_IDLE_MS = 10 * 60 * 1000;

/**
 * The driver of every in-process loop: its lines are od events already, so a
 * record is passed on when it is a valid event body and kept as `raw` otherwise.
 * Nothing is sent back and there is no protocol abort: cancel aborts the loop.
 */
export const loopDriver = defineDriver<null>({
  name: "loop",
  keepStdinOpen: false,
  idleTimeoutMs: LOOP_IDLE_MS,
  start: () => ({ state: null, send: [] }),
  receive: (record, _state, line) => ({ events: [isBody(record) ? record : { type: "raw", stream: "stdout", line }] }),
  abort: () => [],
});

function isBody(record: unknown): record is OdEventBody {
  if (typeof record !== "object" || record === null || Array.isArray(record)) return false;
  const type = (record as { type?: unknown }).type;
  if (typeof type === "string" && type.startsWith("run.")) return false; // run.started, run.finished...: the pipeline's own
  return OdEvent.safeParse({ ...record, runId: "-", seq: 0, ts: 0 }).success;
}

/**
 * Detection of an adapter that runs inside od: there is no executable to find,
 * so "installed" means "configured": one of its `detect.auth.envKeys` (an API
 * key, or the URL of a local endpoint) is set. Unconfigured it is `missing`, as
 * an uninstalled CLI is; configured it is `ready`, at its endpoint, with od's version.
 */
export function detectLoop(adapter: Adapter, env: Env): Detection {
  const keys = adapter.detect.auth?.envKeys ?? [];
  const configured = keys.some((k) => env[k]);
  let endpoint: string | undefined;
  try {
    endpoint = loopFor(adapter).endpoint?.(env);
  } catch {}
  const base: Detection = {
    id: adapter.id,
    name: adapter.name,
    status: "missing",
    installed: false,
    confident: false,
    auth: configured ? "ok" : "missing",
    login: adapter.login,
    models: adapter.models,
    modelSource: adapter.models.length ? "aliases" : "none",
    efforts: adapter.efforts,
    problems: [],
  };
  if (!configured)
    return {
      ...base,
      problems: [
        { code: "AGENT_NOT_FOUND", message: `${adapter.name} is not configured: none of ${keys.join(", ")} is set`, hint: adapter.install },
      ],
    };
  return { ...base, status: "ready", installed: true, confident: true, path: endpoint, version: VERSION };
}
