import { type ErrorCode, OdError } from "../contract/errors.ts";
import type { OdEventBody } from "../contract/events.ts";
import { sleep } from "../os/sleep.ts";
import { classifyText } from "../protocols/classify-text.ts";
import { redact } from "../protocols/redact.ts";
import { lastingFailure, unreachable } from "./reach.ts";

/** How hard od tries again: 429 and 5xx (and a connection dropped) are retried a bounded number of times. */
export interface RetryPolicy {
  rateLimitRetries: number;
  serverRetries: number;
  /** First backoff without a retry-after header; it doubles each time, with ±20 % jitter. */
  baseMs: number;
  maxBackoffMs: number;
  /** A retry-after longer than this is not waited for: the run ends RATE_LIMITED at once. */
  maxWaitMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { rateLimitRetries: 4, serverRetries: 3, baseMs: 1000, maxBackoffMs: 30_000, maxWaitMs: 60_000 };

export interface PostSpec {
  /** "anthropic" or "openai", for messages. */
  provider: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal;
  /** What to tell the user when the key is rejected. */
  authHint: string;
  note: (line: string) => void;
}

/**
 * POSTs a streaming request and returns the successful response. A 429, a 5xx
 * (529 included) or a connection dropped waits (the provider's retry-after-ms or
 * retry-after when it sends one, else exponential backoff) and tries again,
 * each retry announced by a `status` event; when the retries run out, or for
 * any other status, it throws an OdError with the provider's own message. An endpoint that
 * cannot be reached at all (refused, no such host) is ENDPOINT_UNREACHABLE at once.
 */
export async function* postWithRetry(spec: PostSpec, policy: RetryPolicy = DEFAULT_RETRY): AsyncGenerator<OdEventBody, Response> {
  let rateLimited = 0;
  let failed = 0;
  for (;;) {
    let res: Response | undefined;
    let reason = "";
    try {
      res = await fetch(spec.url, { method: "POST", headers: spec.headers, body: JSON.stringify(spec.body), signal: spec.signal });
    } catch (err) {
      if (spec.signal.aborted) throw err;
      // Nothing listens there, no such host: no retry mends it, so it is said at once.
      const lasting = lastingFailure(err);
      if (lasting) throw unreachable(spec.url, lasting);
      res = undefined;
      reason = `cannot reach ${spec.url}: ${(err as Error).message}`;
    }
    if (res?.ok) return res;
    const message = res ? providerMessage(await boundedText(res)) : "";
    if (res) reason = `${res.status}${message ? `: ${message}` : ""}`;
    spec.note(`POST ${spec.url} -> ${reason}`);
    const status = res?.status ?? 0;
    const isRateLimit = status === 429 && !/insufficient_quota|exceeded your current quota/i.test(message);
    const isServer = status === 0 || status === 408 || status >= 500;
    if (!isRateLimit && !isServer) throw httpError(spec, status, message);
    const tries = isRateLimit ? ++rateLimited : ++failed;
    const limit = isRateLimit ? policy.rateLimitRetries : policy.serverRetries;
    if (tries > limit) throw exhausted(spec, status, reason, tries);
    const asked = res ? retryAfterMs(res.headers) : undefined;
    if (asked !== undefined && asked > policy.maxWaitMs)
      throw new OdError(
        "RATE_LIMITED",
        `${spec.provider} asks to wait ${Math.round(asked / 1000)} s before retrying (${reason})`,
        "Try again later, or use another key or model.",
      );
    const wait = asked ?? backoffMs(tries, policy);
    yield {
      type: "status",
      label: "retrying",
      detail: `${spec.provider} answered ${status ? status : "no connection"}${isRateLimit ? " (rate limited)" : ""}; retry ${tries} of ${limit} in ${wait < 1000 ? `${wait} ms` : `${(wait / 1000).toFixed(1)} s`}${asked !== undefined ? " (as the provider asked)" : ""}`,
    };
    await sleep(wait, spec.signal);
  }
}

/** `retry-after-ms` (OpenAI), else `retry-after` in seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number.parseFloat(headers.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return Math.round(ms);
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function backoffMs(attempt: number, policy: RetryPolicy = DEFAULT_RETRY, random = Math.random): number {
  const plain = Math.min(policy.baseMs * 2 ** (attempt - 1), policy.maxBackoffMs);
  return Math.round(plain * (0.8 + 0.4 * random()));
}

/** The error for a status that is not worth retrying. */
function httpError(spec: PostSpec, status: number, message: string): OdError {
  const text = `${spec.provider} answered ${status}${message ? `: ${message}` : ""}`;
  if (status === 401 || status === 403) return new OdError("AGENT_AUTH_REQUIRED", text, spec.authHint);
  if (status === 429) return new OdError("RATE_LIMITED", text, "The account is out of quota or credit: check its billing.");
  if (status === 413) return new OdError("AGENT_PROMPT_TOO_LARGE", text, "Shorten the prompt or the conversation, or start a new session.");
  if (status === 404 && /model/i.test(message))
    return new OdError("MODEL_NOT_AVAILABLE", text, "Pass --model (or set OD_API_MODEL) to a model this endpoint serves.");
  if (status === 404) return new OdError("AGENT_ERROR", text, `Check OD_API_BASE_URL: ${spec.url} does not exist.`);
  const c = classifyText(text, { name: spec.provider });
  return new OdError(c.code, text, c.code === "AGENT_ERROR" ? undefined : c.hint);
}

function exhausted(spec: PostSpec, status: number, reason: string, tries: number): OdError {
  const code: ErrorCode = status === 429 ? "RATE_LIMITED" : "AGENT_ERROR";
  const hint =
    status === 429
      ? "The provider is rate limiting; wait a moment and try again."
      : status === 0
        ? "Is the server running? Check OD_API_BASE_URL."
        : "The provider is failing; try again later.";
  return new OdError(code, `${spec.provider}: ${reason} (gave up after ${tries} attempts)`, hint);
}

/** The provider's own error message from a JSON error body ({error: {message}} in both APIs), else the text; redacted (providers echo refused keys). */
export function providerMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const m = typeof body.error === "string" ? body.error : (body.error?.message ?? body.message);
    if (typeof m === "string" && m) return redact(m.slice(0, 500));
  } catch {}
  return redact(text.trim().slice(0, 500));
}

async function boundedText(res: Response): Promise<string> {
  try {
    return (await res.text()).slice(0, 64 * 1024);
  } catch {
    return "";
  }
}
