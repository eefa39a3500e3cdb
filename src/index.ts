/**
 * od as a library, for Bun programs: the same pipeline the CLI and the server use.
 *
 *   import { runAgent } from "od";
 *   for await (const e of runAgent({ agent: "claude", prompt: "fix the tests", cwd: "." })) console.log(e);
 */

import { loadRegistry } from "./builtins.ts";
import type { Adapter } from "./core/agents/adapter.ts";
import type { Detection } from "./core/agents/detect.ts";
import { type CachedDetections, detectCached } from "./core/agents/detect-cache.ts";
import type { Registry } from "./core/agents/registry.ts";
import { OdError } from "./core/errors.ts";

export { loadRegistry, loadSkills } from "./builtins.ts";
export type { Adapter, AdapterInput, Invocation, InvokeContext, LinesProtocol } from "./core/agents/adapter.ts";
export { defineAdapter, defineLinesProtocol, validateAdapter } from "./core/agents/adapter.ts";
export type { Detection } from "./core/agents/detect.ts";
export type { Registry } from "./core/agents/registry.ts";
export { createRegistry } from "./core/agents/registry.ts";
export { selectAgent } from "./core/agents/select.ts";
export { ErrorCode, OdError } from "./core/errors.ts";
export type { OdEventBody } from "./core/events.ts";
export { eventJsonSchema, Mode, OdEvent } from "./core/events.ts";
export type { ParallelItem, ParallelResult } from "./core/run/parallel.ts";
export { parallel } from "./core/run/parallel.ts";
export type { Broker, Decision, PermissionAsk } from "./core/run/permissions.ts";
export { runWithRetry } from "./core/run/retry.ts";
export type { RunOptions, RunPlan } from "./core/run/run.ts";
export { planRun, RunRequest, runAgent } from "./core/run/run.ts";

export { VERSION } from "./core/version.ts";

type Env = Record<string, string | undefined>;

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
  const registry = opts.registry ?? (await loadRegistry());
  const adapter: Adapter | undefined = registry.get(agent)?.adapter;
  if (!adapter)
    throw new OdError(
      "AGENT_UNKNOWN",
      `No adapter named "${agent}"`,
      `Known agents: ${registry
        .list()
        .map((e) => e.adapter.id)
        .join(", ")}.`,
    );
  const [d] = (await detectCached([adapter], { env: opts.env, refresh: opts.refresh })).detections;
  return { models: ["default", ...d!.models], efforts: d!.efforts, source: d!.modelSource };
}
