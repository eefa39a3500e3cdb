import { resolve } from "node:path";
import { createStamper, type OdEvent } from "../events.ts";
import type { RunOptions, RunRequest } from "./request.ts";
import { DEFAULT_RETRY, type RetryPolicy, type Wait, withRetry } from "./retry.ts";
import { withSummary } from "./summary.ts";

export interface CreateRunOptions extends RunOptions {
  /** Retries of transient failures (default: 3 attempts in all; the fallback model is the adapter's own). */
  retry?: Partial<RetryPolicy>;
  /** How a retry waits (tests count the waits instead of sitting through them). */
  wait?: Wait;
}

/**
 * A run, composed once for every surface (`od run`, parallel runs, `od serve`,
 * the library): attempts with retry and the adapter's fallback model, the
 * `run.result` summary (usage summed over turns) before the one `run.finished`,
 * and the envelope — `runId`, `seq`, `ts` — stamped here and nowhere else.
 * Breaking out of the iteration cancels the run and leaves nothing behind.
 */
export async function* createRun(request: RunRequest, opts: CreateRunOptions): AsyncGenerator<OdEvent> {
  const stamp = createStamper(opts.runId ?? crypto.randomUUID());
  const policy: RetryPolicy = {
    ...DEFAULT_RETRY,
    fallbackModel: opts.registry.get(request.agent)?.adapter.rateLimitFallbackModel,
    ...opts.retry,
  };
  const cwd = resolve(request.cwd ?? process.cwd());
  for await (const body of withSummary(withRetry(request, opts, policy, opts.wait), cwd)) yield stamp(body);
}
