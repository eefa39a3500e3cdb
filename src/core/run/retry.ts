import type { BodyOf, OdEventBody } from "../contract/events.ts";

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

/** What to do once an attempt has ended: stand by its run.finished, or try again after a wait. */
export type Verdict = { retry: false } | { retry: true; waitMs: number; model?: string; status: BodyOf<"status"> };

/**
 * Whether a failed attempt is tried again: one that failed only with retryable
 * errors (rate limits, overloaded or failing servers, dropped connections) and
 * did no tool call yet (so nothing is done twice), after exponential backoff
 * with jitter, honouring a `retry after N` the error names (one longer than the
 * policy's longest wait is not sat through: the agent's error already says so).
 * Permanent failures are never retried; a rate limit may fall back to the
 * adapter's declared model, announced, never silent.
 */
export class Retries {
  private errors: BodyOf<"error">[] = [];
  private acted = false;

  constructor(private readonly policy: RetryPolicy) {}

  observe(body: OdEventBody): void {
    if (body.type === "error") this.errors.push(body);
    else if (body.type === "tool.call") this.acted = true;
  }

  /** After attempt `n` ended with `finished` (its errors and tool calls observed), under `model`. */
  verdict(finished: BodyOf<"run.finished">, n: number, model: string | undefined): Verdict {
    const { errors, policy } = this;
    this.errors = [];
    const transient = finished.status === "failed" && errors.length > 0 && errors.every((e) => e.retryable && e.code !== "TIMEOUT");
    if (!transient || this.acted || n >= policy.attempts) return { retry: false };
    const waitMs = delayFor(n, policy, errors);
    if (waitMs > policy.maxMs) return { retry: false };
    const fallback = fallbackFor(policy, errors, model);
    const after = errors.at(-1)!.message.slice(0, 200);
    const detail = `attempt ${n + 1} of ${policy.attempts} in ${(waitMs / 1000).toFixed(1)} s after: ${after}${fallback ? `; falling back to model ${fallback}` : ""}`;
    return { retry: true, waitMs, model: fallback, status: { type: "status", label: "retrying", detail } };
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
