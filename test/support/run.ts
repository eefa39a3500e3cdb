/**
 * The pipeline as the core tests drive it: `createRun`, every stage included
 * (summary, stamping), with one attempt unless a test asks for retries, so a
 * classified transient failure is seen as it is rather than waited out.
 */

import type { RunRequest } from "../../src/core/contract/request.ts";
import type { PlanView } from "../../src/core/run/dry-run.ts";
import { viewPlan } from "../../src/core/run/dry-run.ts";
import { type CreateRunOptions, createRun } from "../../src/core/run/pipeline.ts";
import { planRun as plan } from "../../src/core/run/plan.ts";
import type { RunOptions } from "../../src/core/run/request.ts";

export type { RunOptions, RunRequest };

export function runAgent(request: RunRequest, opts: CreateRunOptions) {
  return createRun(request, { retry: { attempts: 1 }, ...opts });
}

/** What `--dry-run` prints for this request. */
export async function planRun(request: RunRequest, opts: RunOptions): Promise<PlanView> {
  return viewPlan(await plan(request, opts));
}
