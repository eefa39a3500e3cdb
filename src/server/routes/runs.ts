import { isAbsolute } from "node:path";
import { Hono } from "hono";
import type { Registry } from "../../core/agents/registry.ts";
import { OdError } from "../../core/contract/errors.ts";
import { RunRequest } from "../../core/contract/request.ts";
import { z } from "../../core/contract/zod.ts";
import { historyPage } from "../../core/runs/page.ts";
import type { Runs } from "../../core/runs/service.ts";
import { resumeAfter, runEvents } from "../sse.ts";
import { type Targets, targetOf } from "../targets.ts";
import { jsonBody, mustBeDirectory } from "./body.ts";

/** What a client may ask for: the pipeline's request, with an absolute cwd; a named target, never an `on` URL. */
const Body = RunRequest.omit({ on: true }).extend({
  cwd: z.string().refine(isAbsolute, "cwd must be an absolute path").optional(),
  /** Relay the agent's permission requests to this client instead of deciding by policy. */
  ask: z.boolean().optional(),
  /** A target from OD_HOME/targets.json, by name (GET /api/targets). */
  target: z.string().optional(),
});

const DecisionBody = z.object({ decision: z.enum(["allow", "deny"]) });

async function readBody(c: { req: { json(): Promise<unknown> } }, runs: Runs, registry: Registry, targets?: Targets) {
  const raw = await jsonBody(c);
  const where = targetOf(raw, targets, runs.deps.slots);
  const parsed = Body.safeParse(raw);
  if (!parsed.success) throw new OdError("INVALID_REQUEST", z.prettifyError(parsed.error));
  const { ask, target: _, ...request } = parsed.data;
  if (!registry.get(request.agent))
    throw new OdError("AGENT_UNKNOWN", `No adapter named "${request.agent}"`, "GET /api/agents lists them.");
  // On a target the directory is the target's (its login directory when none is given): not this machine's to check.
  if (where) return { request: { ...request, on: where.on }, ask, slots: where.slots };
  if (request.cwd === undefined) throw new OdError("INVALID_REQUEST", "cwd is required: the agent's working directory, an absolute path");
  mustBeDirectory(request.cwd);
  return { request, ask, slots: undefined };
}

/**
 * Runs for clients (the web UI, scripts): start one (`POST /runs`, or `POST /chat`, which answers
 * with its event stream), list the history (a compare run is one record), read one, follow its
 * events (SSE), cancel it, answer its permission questions. A run refused before it started is
 * the request's error (4xx), not a run.
 */
export function runRoutes(runs: Runs, registry: Registry, opts: { heartbeatMs?: number; targets?: Targets } = {}) {
  const start = async (c: Parameters<typeof readBody>[0]) => {
    const { request, ask, slots } = await readBody(c, runs, registry, opts.targets);
    return runs.start(request, { origin: "serve", ask, slots });
  };
  return (
    new Hono()
      .post("/runs", async (c) => c.json({ runId: (await start(c)).runId }, 201))
      // The whole history (cached summaries), newest first, in pages: ?limit=&before=&agent=&status=&q=
      .get("/runs", (c) => c.json(historyPage(runs.list(Number.MAX_SAFE_INTEGER), c.req.query())))
      .get("/runs/:id", (c) => c.json(runs.summary(c.req.param("id"))))
      .get("/runs/:id/events", (c) => runEvents(c, runs, c.req.param("id"), resumeAfter(c), opts.heartbeatMs))
      .post("/runs/:id/cancel", (c) => c.json({ cancelled: runs.cancel(c.req.param("id")) }, 202))
      .post("/runs/:id/permissions/:askId", async (c) => {
        const parsed = DecisionBody.safeParse(await c.req.json().catch(() => undefined));
        if (!parsed.success) throw new OdError("INVALID_REQUEST", 'Send {"decision": "allow" | "deny"}');
        if (!runs.decide(c.req.param("id"), c.req.param("askId"), parsed.data.decision))
          throw new OdError(
            "RUN_NOT_FOUND",
            "No permission request is waiting under that id",
            "It may have timed out, or been answered already.",
          );
        return c.json({ ok: true });
      })
      .post("/chat", async (c) => runEvents(c, runs, (await start(c)).runId, -1, opts.heartbeatMs))
  );
}
