import type { OdEventBody } from "./events.ts";
import type { Env, ValidRequest } from "./request.ts";

/**
 * The contract of an agent loop od owns (the `api` adapter's, in core/api): what it is given and
 * what it yields. The run pipeline starts it in process (core/loops) as it would spawn a CLI.
 */

/** The run's settings a loop acts on, handed over typed (a spawned CLI would get them as flags). */
export type LoopSettings = Pick<ValidRequest, "mode" | "model" | "resume" | "maxTurns">;

/** What an in-process loop gets: what a spawned agent would (env, cwd, stdin) with its settings typed, plus a cancel signal. */
export interface LoopContext {
  settings: LoopSettings;
  env: Env;
  cwd: string;
  /** invoke's stdin: the composed prompt. */
  prompt: string;
  /** Aborted on cancel, timeout, a final error or when the consumer stops: the loop must end soon after. */
  signal: AbortSignal;
  /** The loop's diagnostic channel (its "stderr"): a bounded tail, used in closing hints, never shown as text. */
  note: (line: string) => void;
}

/**
 * An agent loop od owns, chosen by name from an adapter's `{ kind: "loop" }`
 * protocol. `run` streams od event bodies and returns when the turn is over; it
 * reports failures as `error` events and never needs to emit `run.started` or
 * `run.finished` (the pipeline does).
 */
export interface Loop {
  name: string;
  run: (ctx: LoopContext) => AsyncIterable<OdEventBody>;
  /** Where it would send requests with this environment, for `od agents` (display only). */
  endpoint?: (env: Env) => string | undefined;
  /**
   * The models its endpoint serves, asked of the endpoint itself, and where the list came from:
   * detection's probe (an endpoint that cannot be reached is not ready) and the agent's catalog.
   * Throws an OdError (ENDPOINT_UNREACHABLE, AGENT_AUTH_REQUIRED, …) when it cannot tell.
   */
  models?: (env: Env, opts: { signal?: AbortSignal; timeoutMs?: number }) => Promise<{ models: string[]; from: string }>;
}
