/**
 * How an agent loop inside od plugs into the pipeline: the registry of loops
 * by name (resolved like protocol drivers), the transport the pipeline starts
 * where it would spawn (it yields event bodies, not lines), its near-empty
 * driver, and detection for an adapter that has no executable.
 */

import { apiLoop } from "../api/loop.ts";
import type { Adapter } from "../contract/adapter.ts";
import { OdError } from "../contract/errors.ts";
import { isEventBody } from "../contract/events.ts";
import type { Loop } from "../contract/loop.ts";
import { defineDriver } from "../protocols/driver.ts";
import { LoopProcess, type LoopSpec } from "./transport.ts";

export { LoopProcess, type LoopSpec, type Transport } from "./transport.ts";

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

/** Where the pipeline would spawn: start the adapter's loop with the run's settings and prompt instead. */
export function startLoop(adapter: Pick<Adapter, "id" | "protocol">, spec: LoopSpec): LoopProcess {
  return new LoopProcess(loopFor(adapter), spec);
}

/** Silence this long from a loop (no event at all, not even a retry notice) ends the run as stuck. */
export const LOOP_IDLE_MS = 10 * 60 * 1000;

/**
 * The driver of every in-process loop. A loop's frames are event bodies,
 * already checked by its transport, so the driver has little to do: it sends
 * nothing, has no protocol abort (cancel aborts the loop) and carries the idle
 * watchdog. `receive` sees a record only if a line is handed to it, and applies the same check.
 */
export const loopDriver = defineDriver<null>({
  name: "loop",
  keepStdinOpen: false,
  idleTimeoutMs: LOOP_IDLE_MS,
  start: () => ({ state: null, send: [] }),
  receive: (record, _state, line) => ({ events: [isEventBody(record) ? record : { type: "raw", stream: "stdout", line }] }),
  abort: () => [],
});
