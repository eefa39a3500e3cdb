/**
 * od as a library (`od`), for Bun programs: the same pipeline the CLI and the server use. A plugin
 * (an adapter for another CLI) imports `od/plugin` instead (src/plugin.ts).
 *
 * @example Running an agent: its answer as it streams, then how the run ended.
 * ```ts
 * import { detectAgents, runAgent } from "od";
 *
 * const ready = (await detectAgents()).filter((d) => d.status === "ready").map((d) => d.id);
 * const agent = ready.includes("claude") ? "claude" : ready[0];
 * if (!agent) throw new Error("no agent CLI is installed and logged in (`od doctor` says why)");
 * for await (const event of runAgent({ agent, prompt: "add a test for parseArgs", cwd: ".", mode: "edit" })) {
 *   if (event.type === "text.delta") process.stdout.write(event.text);
 *   if (event.type === "error") console.error(`${event.code}: ${event.message}`);
 *   if (event.type === "run.finished") console.log(`\n${event.status} in ${event.durationMs} ms`);
 * }
 * ```
 */

import { loadRegistry, loadSkills } from "./builtins.ts";
import type { Detection } from "./core/agents/detect.ts";
import { type CachedDetections, detectCached } from "./core/agents/detect-cache.ts";
import { listModels as listModelsOf } from "./core/agents/models.ts";
import type { Registry } from "./core/agents/registry.ts";
import * as events from "./core/contract/events.ts";
import { built } from "./core/contract/lazy.ts";
import type { Env } from "./core/contract/request.ts";
import * as request from "./core/contract/request.ts";
import { type PlanView, viewPlan } from "./core/run/dry-run.ts";
import { type CreateRunOptions, createRun } from "./core/run/pipeline.ts";
import { planRun as planFor } from "./core/run/plan.ts";

export { loadRegistry, loadSkills } from "./builtins.ts";
export type { Detection } from "./core/agents/detect.ts";
export type { Registry } from "./core/agents/registry.ts";
export { createRegistry } from "./core/agents/registry.ts";
export { selectAgent } from "./core/agents/select.ts";
export type { Adapter, AdapterInput, Invocation, InvokeContext, LinesProtocol } from "./core/contract/adapter.ts";
export { defineAdapter, defineLinesProtocol, validateAdapter } from "./core/contract/adapter.ts";
export { OdError } from "./core/contract/errors.ts";
export type { OdEventBody } from "./core/contract/events.ts";
export { eventJsonSchema } from "./core/contract/events.ts";
export type { Decision, PermissionAsk } from "./core/contract/permissions.ts";
export { VERSION } from "./core/os/version.ts";
export type { PlanView } from "./core/run/dry-run.ts";
export type { ParallelItem, ParallelResult } from "./core/run/parallel.ts";
export { parallel } from "./core/run/parallel.ts";
export type { Broker } from "./core/run/permissions.ts";
export type { CreateRunOptions } from "./core/run/pipeline.ts";
export { createRun } from "./core/run/pipeline.ts";
export type { RunOptions } from "./core/run/request.ts";
export type { RetryPolicy } from "./core/run/retry.ts";

/** Library options: those of `createRun`, with the registry optional (default: the built-ins and your plugins). */
export type RunAgentOptions = Omit<CreateRunOptions, "registry"> & { registry?: Registry };

/**
 * Runs one prompt on an agent: the pipeline every surface uses (`createRun`),
 * with the default registry and skills when none are given. Breaking out of the
 * iteration cancels the run.
 */
export async function* runAgent(request: RunRequest, opts: RunAgentOptions = {}): AsyncGenerator<OdEvent> {
  const registry = opts.registry ?? (await loadRegistry());
  yield* createRun(request, { skills: () => loadSkills([], opts.env), ...opts, registry });
}

/** What a run would spawn, without spawning (`od run --dry-run`). */
export async function planRun(request: RunRequest, opts: RunAgentOptions = {}): Promise<PlanView> {
  const registry = opts.registry ?? (await loadRegistry());
  return viewPlan(await planFor(request, { skills: () => loadSkills([], opts.env), ...opts, registry }));
}

/** Which agents are installed, working and logged in (cached 24 h; `refresh` probes again). */
export async function detectAgents(opts: { registry?: Registry; env?: Env; refresh?: boolean } = {}): Promise<Detection[]> {
  const registry = opts.registry ?? (await loadRegistry());
  const found: CachedDetections = await detectCached(
    registry.list().map((e) => e.adapter),
    { env: opts.env, refresh: opts.refresh },
  );
  return found.detections;
}

/** An agent's models (`default` first: pass no model flag) and its effort levels. */
export async function listModels(
  agent: string,
  opts: { registry?: Registry; env?: Env; refresh?: boolean } = {},
): Promise<{ models: string[]; efforts: string[]; source: Detection["modelSource"] }> {
  // The same core function the CLI and the server call; only the default registry is loaded here.
  return listModelsOf(opts.registry ?? (await loadRegistry()), agent, { env: opts.env, refresh: opts.refresh });
}

// The schemas themselves (contract/lazy.ts builds od's on first use): a library's own schema may take them as parts.
export const ErrorCode = built(events.ErrorCode);
export type ErrorCode = events.ErrorCode;
export const Mode = built(events.Mode);
export type Mode = events.Mode;
export const OdEvent = built(events.OdEvent);
export type OdEvent = events.OdEvent;
export const RunRequest = built(request.RunRequest);
export type RunRequest = request.RunRequest;
