import { isEventBody, type OdEventBody } from "../contract/events.ts";
import type { Driver, DriverStep, SyncDriver } from "./driver.ts";
import { redact } from "./redact.ts";

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
  if (!driver.textLines && blank(line)) return { events: [] };
  let record: unknown = line;
  if (!driver.textLines) {
    if (!mayBeJson(line)) return unparsed(line);
    try {
      record = JSON.parse(line);
    } catch {
      return unparsed(line);
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

/** A driver's step with a list of events, held to the guarantees: counts cleaned, diagnostics redacted, a plugin's events checked. */
function checked(step: DriverStep, line: string, validate: boolean): DriverStep {
  // Per line this is the hot path: the step itself when no body changed (no copy of it, nor of its list).
  const { events } = step;
  let out = events;
  for (let i = 0; i < events.length; i++) {
    const body = events[i]!;
    let clean = sanitized(body);
    if (validate && !valid(clean)) clean = raw(line);
    if (clean === body) continue;
    if (out === events) out = events.slice();
    out[i] = clean;
  }
  return out === events ? step : { ...step, events: out };
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
  const out = events.map(sanitized);
  return validate ? out.map((body) => (valid(body) ? body : raw(JSON.stringify(body) ?? String(body)))) : out;
}

/** A line JSON.parse refused: kept raw; when it looks like broken structured output, with whatever text it carried salvaged. */
function unparsed(line: string): DriverStep {
  if (!/^\s*[{[]/.test(line)) return { events: [raw(line)] };
  const text = salvageText(line);
  return { events: [raw(line), ...(text ? [{ type: "text.delta" as const, id: "degraded", text }] : [])], malformed: true };
}

/**
 * Whether JSON.parse could take the line: false when what follows its JSON white space can begin
 * no JSON value (a log line an agent prints among its records), which would cost a throw (~0.5 µs
 * in JSC, as much as parsing a record of a few hundred bytes) for the same answer.
 */
function mayBeJson(line: string): boolean {
  let i = 0;
  let c = line.charCodeAt(0);
  while (c === 32 || c === 9 || c === 10 || c === 13) c = line.charCodeAt(++i);
  // { [ " - and digits begin a value; t, f and n only as true, false and null, the whole line.
  if (c === 123 || c === 91 || c === 34 || c === 45 || (c >= 48 && c <= 57)) return true;
  return (c === 116 || c === 102 || c === 110) && LITERAL.test(line);
}

const LITERAL = /^[ \t\n\r]*(?:true|false|null)[ \t\n\r]*$/;

/** The string values of "text" and "delta" fields in a line that does not parse (not tool inputs or results). */
export function salvageText(line: string): string {
  // One regex asked in a loop: matchAll makes a copy of it and an iterator per line (~100 ns).
  let out = "";
  SALVAGED.lastIndex = 0;
  for (let m = SALVAGED.exec(line); m; m = SALVAGED.exec(line)) {
    try {
      out += JSON.parse(`"${m[1]}"`);
    } catch {}
  }
  return out;
}

const SALVAGED = /"(?:text|delta)"\s*:\s*"((?:[^"\\]|\\.)*)"/g;

/**
 * Whether the line is only white space, as `!line.trim()` says, without trimming a line that starts
 * with a printable ASCII character (every JSON record does): nothing to trim can make it empty.
 */
function blank(line: string): boolean {
  const c = line.charCodeAt(0);
  return !(c > 32 && c < 127) && !line.trim();
}

/** Events from plugins are untrusted: each is checked against the event model, and none may speak for the pipeline (`run.*`). */
const valid = isEventBody;

function raw(line: string): OdEventBody {
  return { type: "raw", stream: "stdout", line: redact(line) };
}

/**
 * A body as it may leave the driver: usage with clean counts, and credentials
 * out of what an agent says about a failure (error message and hint, status
 * detail, raw line). Providers echo refused keys and CLIs print request
 * headers; none of it may reach the run log. Assistant text is never touched.
 */
function sanitized(body: OdEventBody): OdEventBody {
  switch (body?.type) {
    case "usage":
      return countable(body);
    case "error":
      return redacted(redacted(body, "message"), "hint");
    case "status":
      return redacted(body, "detail");
    case "raw":
      return redacted(body, "line");
    default:
      return body;
  }
}

/** The body with one text field redacted; the same body when there was nothing to take out (or the field is not text). */
function redacted<B extends OdEventBody>(body: B, key: keyof B): B {
  const value = body[key];
  if (typeof value !== "string") return body;
  const clean = redact(value);
  return clean === value ? body : { ...body, [key]: clean };
}

/**
 * A usage body with only the counts that are counts: finite and non-negative. A
 * parser that passes a CLI's figures through unchecked would otherwise emit
 * "Infinity in" or a negative cost (and an event the schema refuses).
 */
function countable(body: Extract<OdEventBody, { type: "usage" }>): OdEventBody {
  // Per usage event: each field read by its name (one look each), the loop below only when one is off.
  if (
    isCount(body.inputTokens) &&
    isCount(body.outputTokens) &&
    isCount(body.cacheRead) &&
    isCount(body.cacheWrite) &&
    isCount(body.reasoningTokens) &&
    isCount(body.costUsd)
  )
    return body;
  let out: typeof body | undefined;
  for (const k of COUNTS) {
    const v = body[k];
    if (isCount(v)) continue;
    out ??= { ...body };
    delete out[k];
  }
  return out ?? body;
}

/** Absent, or a count: finite and not negative. */
const isCount = (v: unknown): boolean => v === undefined || (typeof v === "number" && Number.isFinite(v) && v >= 0);

const COUNTS = ["inputTokens", "outputTokens", "cacheRead", "cacheWrite", "reasoningTokens", "costUsd"] as const;
