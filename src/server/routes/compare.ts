import { isAbsolute } from "node:path";
import { Hono } from "hono";
import type { Registry } from "../../core/agents/registry.ts";
import { OdError } from "../../core/contract/errors.ts";
import { RunRequest } from "../../core/contract/request.ts";
import { z } from "../../core/contract/zod.ts";
import { didYouMean } from "../../core/os/suggest.ts";
import type { Runs } from "../../core/runs/service.ts";
import { readGroup } from "../../core/store/groups.ts";
import { compareOnTarget, type Targets, targetOf } from "../targets.ts";
import { jsonBody, mustBeDirectory } from "./body.ts";

/** 2 to 8 runs in a compare run, as `od run --repeat` allows at most 8. */
const Count = z.number().int().min(2).max(8);

/** POST /api/runs's body without its one agent (nor a session to resume), with the agents to compare. */
const Body = RunRequest.omit({ agent: true, resume: true, on: true }).extend({
  cwd: z.string().refine(isAbsolute, "cwd must be an absolute path"),
  agents: z.array(z.string().min(1)).min(2).max(8).optional(),
  agent: z.string().min(1).optional(),
  repeat: Count.optional(),
});

const SHAPE = 'Send "agents": ["a", "b"] (2 to 8), or "agent" with "repeat": n (2 to 8)';

async function readBody(c: { req: { json(): Promise<unknown> } }, runs: Runs, registry: Registry, targets?: Targets) {
  const raw = await jsonBody(c);
  if (targetOf(raw, targets, runs.deps.slots)) throw compareOnTarget();
  const parsed = Body.safeParse(raw);
  if (!parsed.success) throw new OdError("INVALID_REQUEST", z.prettifyError(parsed.error), SHAPE);
  const { agents: several, agent, repeat, ...base } = parsed.data;
  if (several ? agent !== undefined || repeat !== undefined : agent === undefined || repeat === undefined)
    throw new OdError("INVALID_REQUEST", "Name the agents to compare, or one agent and how often to repeat it", SHAPE);
  const agents = several ?? Array.from({ length: repeat! }, () => agent!);
  const known = registry.list().map((e) => e.adapter.id);
  for (const a of agents)
    if (!registry.get(a))
      throw new OdError("AGENT_UNKNOWN", `No adapter named "${a}"`, `${didYouMean(a, known)}GET /api/agents lists them.`);
  mustBeDirectory(base.cwd);
  return { base, agents };
}

/**
 * Compare runs for the web UI: `POST /compare` starts one (each member a run like any other, watched
 * on `/runs/:runId/events`), `GET /compare/:groupId` says whether it is over (with its record once
 * kept), `POST /compare/:groupId/cancel` cancels every member. Its results: `/runs/:groupId/diff` and `/apply`.
 */
export function compareRoutes(runs: Runs, registry: Registry, targets?: Targets) {
  return new Hono()
    .post("/compare", async (c) => {
      const { base, agents } = await readBody(c, runs, registry, targets);
      const { groupId, members } = runs.compare(base, agents, { origin: "serve" });
      return c.json({ groupId, members }, 201);
    })
    .get("/compare/:groupId", (c) => c.json(status(runs, c.req.param("groupId"))))
    .post("/compare/:groupId/cancel", (c) => {
      const groupId = c.req.param("groupId");
      const live = runs.groups.get(groupId);
      const cancelled = live
        ? live.cancel()
        : (status(runs, groupId).group?.members ?? []).filter((m) => m.runId && runs.cancel(m.runId)).length;
      return c.json({ cancelled }, 202);
    });
}

/** A compare run: its members while it runs, its record (group.json, written as it goes) always. */
function status(runs: Runs, groupId: string) {
  const live = runs.groups.get(groupId);
  const group = /^[\w-]+$/.test(groupId) ? readGroup(runs.deps.log.dir, groupId) : undefined;
  if (live) return { groupId, done: false, members: live.members, group };
  if (!group) throw new OdError("RUN_NOT_FOUND", `No compare run ${groupId}`, "POST /api/compare starts one.");
  return { groupId, done: true, members: group.members.map(({ label, agent, runId }) => ({ label, agent, runId })), group };
}
