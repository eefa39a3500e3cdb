import type { BodyOf, OdEventBody } from "../events.ts";
import { sleep } from "../os/sleep.ts";
import { attempt } from "./attempt.ts";
import type { RunOptions, RunRequest } from "./request.ts";

export interface RetryPolicy {
  /** Attempts in all, the first included (1 = no retry). */
  attempts: number;
  baseMs: number;
  maxMs: number;
  /** A model to fall back to when the chosen one is rate limited (announced, never silent). */
  fallbackModel?: string;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseMs: 2000, maxMs: 30_000 };

export type Wait = (ms: number, signal?: AbortSignal) => Promise<unknown>;

/**
 * Attempts in a row, while failures are transient: a run that failed only with
 * retryable errors (rate limits, overloaded or failing servers, dropped
 * connections) and did no tool call yet (so nothing is done twice) starts again
 * after exponential backoff with jitter, honouring a `retry after N` the error
 * names (one longer than the policy's longest wait is not retried; a cancel
 * ends the wait at once). Each retry is a `status`; the stream has exactly one
 * run.finished, the last attempt's. Permanent failures are never retried.
 */
export async function* withRetry(
  request: RunRequest,
  opts: RunOptions,
  policy: RetryPolicy,
  wait: Wait = sleep,
): AsyncGenerator<OdEventBody> {
  let current = request;
  for (let n = 1; ; n++) {
    const errors: BodyOf<"error">[] = [];
    let acted = false;
    let finished: BodyOf<"run.finished"> | undefined;
    for await (const body of attempt(current, opts)) {
      if (body.type === "run.finished") {
        finished = body;
        break;
      }
      if (body.type === "error") errors.push(body);
      if (body.type === "tool.call") acted = true;
      yield body;
    }
    if (!finished) return;
    const transient = finished.status === "failed" && errors.length > 0 && errors.every((e) => e.retryable && e.code !== "TIMEOUT");
    const waitMs = delayFor(n, policy, errors);
    // Over the policy's longest wait: the agent asks for more than od would sit through, and its error already says so.
    if (!transient || acted || n >= policy.attempts || opts.signal?.aborted || waitMs > policy.maxMs) {
      yield finished;
      return;
    }
    const fallback = fallbackFor(policy, errors, current.model);
    if (fallback) current = { ...current, model: fallback };
    yield {
      type: "status",
      label: "retrying",
      detail: `attempt ${n + 1} of ${policy.attempts} in ${(waitMs / 1000).toFixed(1)} s after: ${errors.at(-1)!.message.slice(0, 200)}${fallback ? `; falling back to model ${fallback}` : ""}`,
    };
    // A cancel ends the wait (or skips it, when it came with the announcement).
    if (!opts.signal?.aborted) await wait(waitMs, opts.signal).catch(() => {});
    if (opts.signal?.aborted) {
      yield { ...finished, status: "cancelled" };
      return;
    }
  }
}

/** The declared fallback model, on a rate limit, when it is not the model that was limited. */
function fallbackFor(policy: RetryPolicy, errors: BodyOf<"error">[], model: string | undefined): string | undefined {
  if (!policy.fallbackModel || model === policy.fallbackModel) return undefined;
  return errors.some((e) => e.code === "RATE_LIMITED") ? policy.fallbackModel : undefined;
}

/** Exponential backoff with jitter (half fixed, half random), at least what a "retry after N" in the error asks for. */
export function delayFor(attempt: number, policy: RetryPolicy, errors: Array<{ message: string }>, random = Math.random): number {
  const asked = Math.max(0, ...errors.map((e) => retryAfterMs(e.message)));
  const backoff = Math.min(policy.maxMs, policy.baseMs * 2 ** (attempt - 1));
  return Math.max(asked, Math.round(backoff / 2 + (random() * backoff) / 2));
}

/** "retry after 7", "Retry-After: 7s", "retry after 500ms" -> milliseconds; 0 when the text names none. */
export function retryAfterMs(message: string): number {
  const m = /retry[- ]?after\D{0,3}(\d+(?:\.\d+)?)\s*(ms|s)?/i.exec(message);
  return m ? Number(m[1]) * (m[2] === "ms" ? 1 : 1000) : 0;
}
