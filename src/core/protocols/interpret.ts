import { isEventBody, type OdEventBody } from "../events.ts";
import type { Driver, DriverStep, SyncDriver } from "./driver.ts";

/**
 * One stdout line through a driver, with the guarantees every adapter gets for
 * free: a non-JSON line (for JSON protocols), a parser that throws (or whose
 * promise rejects) and an event that breaks the schema are each kept as a `raw`
 * line, never lost and never fatal. Plain-text protocols get every line, blank
 * ones included, as a string. `validate` is off for built-in adapters, whose
 * parsers the conformance suite and the fixture goldens hold to the schema; a
 * plugin's events are always checked. A driver that answers at once gets its
 * step at once; a promise only when the driver answered with one.
 */
export function interpret<S>(driver: SyncDriver<S>, state: S, line: string, validate?: boolean): DriverStep;
export function interpret<S>(driver: Driver<S>, state: S, line: string, validate?: boolean): DriverStep | Promise<DriverStep>;
export function interpret<S>(driver: Driver<S>, state: S, line: string, validate = true): DriverStep | Promise<DriverStep> {
  if (!line.trim() && !driver.textLines) return { events: [] };
  let record: unknown = line;
  if (!driver.textLines) {
    try {
      record = JSON.parse(line);
    } catch {
      if (!/^\s*[{[]/.test(line)) return { events: [raw(line)] };
      // Broken structured output: the line is kept, and whatever text it carried is salvaged.
      const text = salvageText(line);
      return { events: [raw(line), ...(text ? [{ type: "text.delta" as const, id: "degraded", text }] : [])], malformed: true };
    }
  }
  let step: DriverStep | Promise<DriverStep>;
  try {
    step = driver.receive(record, state, line);
  } catch {
    return { events: [raw(line)] };
  }
  // A promise has no list of events: the hot path (a step at once) pays no extra check for the async one.
  if (!Array.isArray((step as DriverStep)?.events)) {
    if (step instanceof Promise)
      return step.then(
        (answered) => (Array.isArray(answered?.events) ? checked(answered, line, validate) : { events: [raw(line)] }),
        () => ({ events: [raw(line)] }),
      );
    return { events: [raw(line)] }; // a parser that answered no list
  }
  return checked(step as DriverStep, line, validate);
}

/** A driver's step with a list of events, held to the guarantees: counts cleaned, a plugin's events checked. */
function checked(step: DriverStep, line: string, validate: boolean): DriverStep {
  const events = step.events.some(isUsage) ? step.events.map(countable) : step.events;
  return { ...step, events: validate ? events.map((body) => (valid(body) ? body : raw(line))) : events };
}

/**
 * What a driver adds when the stream ends, with the same guarantees: a throw
 * (or a rejection) or an answer that is no list adds nothing, and a plugin's
 * event that breaks the schema is kept as raw text. At once, or a promise only
 * when the driver answered with one.
 */
export function finishing<S>(driver: SyncDriver<S>, state: S, validate?: boolean): OdEventBody[];
export function finishing<S>(driver: Driver<S>, state: S, validate?: boolean): OdEventBody[] | Promise<OdEventBody[]>;
export function finishing<S>(driver: Driver<S>, state: S, validate = true): OdEventBody[] | Promise<OdEventBody[]> {
  let events: unknown;
  try {
    events = driver.finish?.(state) ?? [];
  } catch {
    return [];
  }
  if (events instanceof Promise)
    return events.then(
      (answered) => bodies(answered, validate),
      () => [],
    );
  return bodies(events, validate);
}

function bodies(events: unknown, validate: boolean): OdEventBody[] {
  if (!Array.isArray(events)) return [];
  const out = events.map(countable);
  return validate ? out.map((body) => (valid(body) ? body : raw(JSON.stringify(body) ?? String(body)))) : out;
}

/** The string values of "text" and "delta" fields in a line that does not parse (not tool inputs or results). */
export function salvageText(line: string): string {
  const out: string[] = [];
  for (const m of line.matchAll(/"(?:text|delta)"\s*:\s*"((?:[^"\\]|\\.)*)"/g)) {
    try {
      out.push(JSON.parse(`"${m[1]}"`));
    } catch {}
  }
  return out.join("");
}

/** Events from plugins are untrusted: each is checked against the event model, and none may speak for the pipeline (`run.*`). */
const valid = isEventBody;

function raw(line: string): OdEventBody {
  return { type: "raw", stream: "stdout", line };
}

/**
 * A usage body with only the counts that are counts: finite and non-negative. A
 * parser that passes a CLI's figures through unchecked would otherwise emit
 * "Infinity in" or a negative cost (and an event the schema refuses).
 */
const isUsage = (body: OdEventBody) => body?.type === "usage";

function countable(body: OdEventBody): OdEventBody {
  if (body?.type !== "usage") return body;
  let out: typeof body | undefined;
  for (const k of COUNTS) {
    const v = body[k];
    if (v === undefined || (typeof v === "number" && Number.isFinite(v) && v >= 0)) continue;
    out ??= { ...body };
    delete out[k];
  }
  return out ?? body;
}

const COUNTS = ["inputTokens", "outputTokens", "cacheRead", "cacheWrite", "reasoningTokens", "costUsd"] as const;
