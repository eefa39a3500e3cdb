import { Hono } from "hono";
import { OdError } from "../../core/contract/errors.ts";
import type { Runs } from "../../core/runs/service.ts";
import { runsSince, usageReport, windowStart } from "../../core/runs/usage.ts";

const MAX_DAYS = 366;

/** An integer query parameter within bounds, its default when absent; a clear 400 otherwise. */
function intParam(value: string | undefined, name: string, fallback: number, [min, max]: [number, number], hint: string): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new OdError("INVALID_REQUEST", `${name} must be a whole number from ${min} to ${max}, not ${value}`, hint);
  return n;
}

/**
 * `GET /usage?days=30&tz=-120`: tokens, cost and runs per day per agent over the last `days` local
 * days (today's included), with run times (core/runs/usage.ts), for the web UI's Usage view. `tz`
 * is the client's offset from UTC in minutes as `Date#getTimezoneOffset` gives it (default: the server's).
 */
export function usageRoutes(runs: Runs) {
  return new Hono().get("/usage", (c) => {
    const days = intParam(c.req.query("days"), "days", 30, [1, MAX_DAYS], "Ask for ?days=30 (at most a year).");
    const tzOffsetMinutes = intParam(
      c.req.query("tz"),
      "tz",
      new Date().getTimezoneOffset(),
      [-14 * 60, 14 * 60],
      "Send the browser's new Date().getTimezoneOffset(), e.g. ?tz=-120 for UTC+2.",
    );
    const opts = { days, now: Date.now(), tzOffsetMinutes };
    const summary = (runId: string) => {
      try {
        return runs.summary(runId);
      } catch {
        return undefined; // its folder went away meanwhile
      }
    };
    return c.json(usageReport(runsSince(runs.deps.log, windowStart(opts), summary), opts));
  });
}
