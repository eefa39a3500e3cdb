import { OdEvent, type OdEventBody } from "./events.ts";
import type { Driver, DriverStep } from "./protocols/driver.ts";

/**
 * One stdout line through a driver, with the guarantees every adapter gets for
 * free: a non-JSON line (for JSON protocols), a parser that throws and an event
 * that breaks the schema are each kept as a `raw` line, never lost and never fatal.
 * Plain-text protocols get every line, blank ones included, as a string.
 */
export function interpret<S>(driver: Driver<S>, state: S, line: string): DriverStep {
  if (!line.trim() && !driver.textLines) return { events: [] };
  let record: unknown = line;
  if (!driver.textLines) {
    try {
      record = JSON.parse(line);
    } catch {
      return { events: [raw(line)] };
    }
  }
  let step: DriverStep;
  try {
    step = driver.receive(record, state, line);
  } catch {
    return { events: [raw(line)] };
  }
  return { ...step, events: step.events.map((body) => (valid(body) ? body : raw(line))) };
}

/** Events from plugins are untrusted: each is checked against the event model. */
function valid(body: OdEventBody): boolean {
  return OdEvent.safeParse({ ...body, runId: "-", seq: 0, ts: 0 }).success;
}

function raw(line: string): OdEventBody {
  return { type: "raw", stream: "stdout", line };
}
