import type { OdEvent } from "../events.ts";
import { sleep } from "../os/sleep.ts";
import { type RunOptions, type RunRequest, runAgent } from "./run.ts";

export interface RetryPolicy {
  /** Attempts in all, the first included (1 = no retry). */
  attempts: number;
  baseMs: number;
  maxMs: number;
  /** A model to fall back to when the chosen one is rate limited (announced, never silent). */
  fallbackModel?: string;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseMs: 2000, maxMs: 30_000 };

/**
 * runAgent, with transient failures retried: a run that failed only with
 * retryable errors (rate limits, overloaded or failing servers, dropped
 * connections) and did no tool call yet (so nothing is done twice) starts again
 * after exponential backoff with jitter, honouring a `retry after N` the error
 * names (one longer than the policy's longest wait is not retried; a cancel
 * ends the wait at once). Each retry is a `status` event; the caller sees one
 * stream, one run id and exactly one run.finished. Permanent failures are never
 * retried.
 */
export async function* runWithRetry(
  request: RunRequest,
  opts: RunOptions = {},
  policy: RetryPolicy = DEFAULT_RETRY,
  wait: (ms: number, signal?: AbortSignal) => Promise<unknown> = sleep,
): AsyncGenerator<OdEvent> {
  const runId = opts.runId ?? crypto.randomUUID();
  let seq = 0;
  // Within the first attempt the numbering already matches: the event passes through uncopied.
  const restamp = (e: OdEvent): OdEvent => {
    if (e.seq !== seq) return { ...e, seq: seq++ };
    seq++;
    return e;
  };
  let current = request;
  for (let attempt = 1; ; attempt++) {
    const errors: Extract<OdEvent, { type: "error" }>[] = [];
    let acted = false;
    let finished: Extract<OdEvent, { type: "run.finished" }> | undefined;
    for await (const e of runAgent(current, { ...opts, runId })) {
      if (e.type === "run.finished") {
        finished = e;
        break;
      }
      if (e.type === "error") errors.push(e);
      if (e.type === "tool.call") acted = true;
      yield restamp(e);
    }
    const transient = finished?.status === "failed" && errors.length > 0 && errors.every((e) => e.retryable && e.code !== "TIMEOUT");
    if (!finished || !transient || acted || attempt >= policy.attempts || opts.signal?.aborted) {
      if (finished) yield restamp(finished);
      return;
    }
    const waitMs = delayFor(attempt, policy, errors);
    if (waitMs > policy.maxMs) {
      // The agent asks for a longer wait than od would sit through: its error already says so.
      yield restamp(finished);
      return;
    }
    const fallback =
      policy.fallbackModel && errors.some((e) => e.code === "RATE_LIMITED") && current.model !== policy.fallbackModel
        ? policy.fallbackModel
        : undefined;
    if (fallback) current = { ...current, model: fallback };
    yield restamp({
      type: "status",
      runId,
      seq: 0,
      ts: Date.now(),
      label: "retrying",
      detail: `attempt ${attempt + 1} of ${policy.attempts} in ${(waitMs / 1000).toFixed(1)} s after: ${errors.at(-1)!.message.slice(0, 200)}${fallback ? `; falling back to model ${fallback}` : ""}`,
    });
    // A cancel ends the wait (or skips it, when it came with the announcement).
    if (!opts.signal?.aborted) await wait(waitMs, opts.signal).catch(() => {});
    if (opts.signal?.aborted) {
      yield restamp({ ...finished, status: "cancelled" });
      return;
    }
  }
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
