import type { OdEventBody } from "../contract/events.ts";
import type { Loop, LoopContext } from "../contract/loop.ts";
import { endpointOf, resolveConfig } from "./config.ts";
import { endpointModels } from "./endpoint.ts";

/**
 * od's own agent loop, for users with no agent CLI: the prompt goes to the
 * model with three tools (Read, Write, Edit) rooted at the cwd; each tool call
 * is run and answered until the model stops calling tools, a turn limit or a
 * token budget is reached, or the run is cancelled. The conversation is saved
 * after every step under the session id it announces, so `--resume` continues it.
 */
export const apiLoop: Loop = {
  name: "api",
  run,
  endpoint: endpointOf,
  models: (env, opts) => endpointModels(resolveConfig({ mode: "edit" }, env), opts),
};

/**
 * The turns are read when a run starts: `od agents` and a dry run ask only where the loop would
 * send requests, and the model clients, tools and sessions behind the turns (with bun:ffi, for
 * opening paths beneath the cwd) would cost every such command their start.
 */
async function* run(ctx: LoopContext): AsyncGenerator<OdEventBody> {
  const { runTurns } = await import("./turns.ts");
  yield* runTurns(ctx);
}
