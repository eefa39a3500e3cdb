import type { Registry } from "../core/agents/registry.ts";
import { selectAgent } from "../core/agents/select.ts";
import { OdError } from "../core/contract/errors.ts";
import { log } from "./log.ts";

/** The most runs `--repeat` starts: each is an agent at work and a worktree on disk. */
export const MAX_REPEAT = 8;

/** Whether these options ask for a compare run: several agents, or `--repeat`. */
export const isCompare = (args: { agent?: string; repeat?: string }) => Boolean(args.agent?.includes(",")) || args.repeat !== undefined;

/**
 * The agents of a compare run, one entry per run: `--agent a,b,c` as given (`pi,pi` twice), or
 * `--repeat N` of one agent (the `--agent` given, else the one od would pick). A usage error otherwise.
 */
export async function compareAgents(args: { agent?: string; repeat?: string }, registry: Registry): Promise<string[]> {
  const listed = (args.agent ?? "")
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean);
  if (args.repeat === undefined) return listed;
  const n = Number(args.repeat);
  if (!Number.isInteger(n) || n < 1 || n > MAX_REPEAT)
    throw new OdError("INVALID_REQUEST", `--repeat must be a whole number from 1 to ${MAX_REPEAT}, not "${args.repeat}"`);
  if (listed.length > 1)
    throw new OdError(
      "INVALID_REQUEST",
      `--repeat runs one agent several times, not several agents (--agent ${args.agent})`,
      "Use --agent a,a,b to choose each run yourself.",
    );
  const { agent, because } = await selectAgent(registry, listed[0]);
  if (because !== "--agent") log.info(`agent: ${agent} (${because})`);
  return Array.from({ length: n }, () => agent);
}
