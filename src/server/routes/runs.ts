import { isAbsolute } from "node:path";
import { Hono } from "hono";
import { z } from "zod";
import type { Registry } from "../../core/agents/registry.ts";
import { OdError } from "../../core/contract/errors.ts";
import { RunRequest } from "../../core/contract/request.ts";
import type { RunStore } from "../runs.ts";
import { resumeAfter, runEvents } from "../sse.ts";
import { targetOf } from "../targets.ts";
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

async function readBody(c: { req: { json(): Promise<unknown> } }, store: RunStore, registry: Registry) {
  const raw = await jsonBody(c);
  const where = targetOf(raw, store.deps.targets, store.deps.slots);
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

export function runRoutes(store: RunStore, registry: Registry, heartbeatMs?: number) {
  return new Hono()
    .post("/runs", async (c) => {
      const { request, ask, slots } = await readBody(c, store, registry);
      return c.json({ runId: store.start(request, { ask, slots }) }, 201);
    })
    .get("/runs", (c) => c.json({ runs: store.list(Number(c.req.query("limit") ?? 50) || 50) }))
    .get("/runs/:id", (c) => c.json(store.summary(c.req.param("id"))))
    .get("/runs/:id/events", (c) => runEvents(c, store, c.req.param("id"), resumeAfter(c), heartbeatMs))
    .post("/runs/:id/cancel", (c) => c.json({ cancelled: store.cancel(c.req.param("id")) }, 202))
    .post("/runs/:id/permissions/:askId", async (c) => {
      const parsed = DecisionBody.safeParse(await c.req.json().catch(() => undefined));
      if (!parsed.success) throw new OdError("INVALID_REQUEST", 'Send {"decision": "allow" | "deny"}');
      if (!store.decide(c.req.param("id"), c.req.param("askId"), parsed.data.decision))
        throw new OdError(
          "RUN_NOT_FOUND",
          "No permission request is waiting under that id",
          "It may have timed out, or been answered already.",
        );
      return c.json({ ok: true });
    })
    .post("/chat", async (c) => {
      const { request, ask, slots } = await readBody(c, store, registry);
      return runEvents(c, store, store.start(request, { ask, slots }), -1, heartbeatMs);
    });
}
