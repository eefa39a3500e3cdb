import { resolve } from "node:path";
import { OdError } from "../contract/errors.ts";
import type { BodyOf, OdEvent } from "../contract/events.ts";
import type { RunRequest } from "../contract/request.ts";
import { odHome } from "../os/paths.ts";
import { sleep } from "../os/sleep.ts";
import { remoteChanges } from "../remote/changes.ts";
import { parseTarget } from "../remote/target.ts";
import { type ChangesSource, localChanges } from "../workspace/changes.ts";
import { attempt } from "./attempt.ts";
import { stamper } from "./envelope.ts";
import type { RunOptions } from "./request.ts";
import { DEFAULT_RETRY, Retries, type RetryPolicy, type Wait } from "./retry.ts";
import { Summary } from "./summary.ts";

export interface CreateRunOptions extends RunOptions {
  /** Retries of transient failures (default: 3 attempts in all; the fallback model is the adapter's own). */
  retry?: Partial<RetryPolicy>;
  /** How a retry waits (tests count the waits instead of sitting through them). */
  wait?: Wait;
  /**
   * Whether run.result lists the files changed in the working directory, with their diff (default
   * true). Costs a walk of the folder (one stat a file, bounded) as the agent starts and as it ends.
   */
  changes?: boolean;
  /**
   * Makes the run's working directory before its first attempt and returns it (a compare member's
   * private copy). A failure ends the run there: its error, then its one run.finished (failed).
   */
  prepare?: () => Promise<string>;
}

/**
 * A run, composed once for every surface (`od run`, parallel runs, `od serve`,
 * the library): attempts in a row while failures are transient (with the
 * adapter's fallback model), the `run.result` summary (usage summed over
 * turns) before the one `run.finished`, and the envelope — `runId`, `seq`,
 * `ts` — stamped here and nowhere else. Breaking out of the iteration cancels
 * the run and leaves nothing behind. One event at a time: `createRunBatches`
 * gives the same events in the arrays they came in.
 */
export async function* createRun(asked: RunRequest, opts: CreateRunOptions): AsyncGenerator<OdEvent> {
  for await (const events of createRunBatches(asked, opts)) yield* events;
}

/**
 * `createRun`'s events, in arrays: the events of one chunk of the agent's output together (what
 * the run service takes, one generator step per chunk instead of per event). One loop does the
 * retries, the summary and the envelope, so a chunk crosses two generators on its way out: the
 * attempt's and this one.
 */
export async function* createRunBatches(asked: RunRequest, opts: CreateRunOptions): AsyncGenerator<OdEvent[]> {
  const runId = opts.runId ?? crypto.randomUUID();
  const stamp = stamper(runId);
  const startedAt = performance.now();
  let request = asked;
  if (opts.prepare)
    try {
      request = { ...asked, cwd: await opts.prepare() };
    } catch (err) {
      const e = OdError.from(err);
      yield [stamp({ type: "error", code: e.code, message: e.message, hint: e.hint, retryable: false })];
      const durationMs = Math.round(performance.now() - startedAt);
      yield [stamp({ type: "run.finished", status: "failed", exitCode: null, signal: null, durationMs, resumable: false })];
      return;
    }
  const retries = new Retries({
    ...DEFAULT_RETRY,
    fallbackModel: opts.registry.get(request.agent)?.adapter.rateLimitFallbackModel,
    ...opts.retry,
  });
  const summary = new Summary(opts.changes === false ? undefined : changesSource(request, opts));
  await summary.prepare();
  const cancelled = () => opts.signal?.aborted === true;
  let current = request;
  for (let n = 1; ; n++) {
    let finished: BodyOf<"run.finished"> | undefined;
    for await (const bodies of attempt(current, { ...opts, runId, onLaunch: () => summary.launching() })) {
      const events: OdEvent[] = [];
      for (const body of bodies) {
        if (body.type === "run.finished") {
          finished = body;
          break;
        }
        retries.observe(body);
        summary.observe(body);
        events.push(stamp(body));
      }
      if (events.length) yield events;
      if (finished) break;
    }
    if (!finished) return; // an attempt always ends with one; this only satisfies the type
    const verdict = cancelled() ? ({ retry: false } as const) : retries.verdict(finished, n, current.model);
    if (verdict.retry) {
      summary.observe(verdict.status);
      yield [stamp(verdict.status)];
      if (verdict.model) current = { ...current, model: verdict.model };
      // A cancel ends the wait (or skips it, when it came with the announcement).
      if (!cancelled()) await (opts.wait ?? sleep)(verdict.waitMs, opts.signal).catch(() => {});
      if (!cancelled()) continue;
      finished = { ...finished, status: "cancelled" };
    }
    yield [stamp(await summary.result())];
    yield [stamp(finished)];
    return;
  }
}

/**
 * Where run.result's files and diff come from: a target's are the target's, taken there with its git
 * (this machine's snapshot of a same-named folder would say nothing about them); else this machine's folder.
 */
function changesSource(request: RunRequest, opts: CreateRunOptions): ChangesSource | undefined {
  if (request?.on) {
    try {
      const cwd = typeof request.cwd === "string" ? request.cwd : "";
      if (cwd && !cwd.startsWith("/")) return undefined; // the plan stage refuses it
      return remoteChanges(parseTarget(request.on), cwd, opts.env ?? process.env);
    } catch {
      return undefined; // not a target: the plan stage refuses it, with its run.finished
    }
  }
  const cwd = workingDirectory(request);
  return cwd ? localChanges(cwd, [odHome(opts.env)]) : undefined;
}

/** Where the agent works, when the request names it usably; a bad one is the plan stage's to refuse, with its run.finished. */
function workingDirectory(request: RunRequest): string | undefined {
  try {
    return resolve(typeof request?.cwd === "string" ? request.cwd : process.cwd());
  } catch {
    return undefined;
  }
}
