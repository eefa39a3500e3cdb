import { statSync } from "node:fs";
import { isAbsolute } from "node:path";
import { Hono } from "hono";
import { z } from "zod";
import type { Registry } from "../../core/agents/registry.ts";
import { OdError } from "../../core/errors.ts";
import { RunRequest } from "../../core/run/request.ts";
import type { RunStore } from "../runs.ts";
import { resumeAfter, runEvents } from "../sse.ts";

/** What a client may ask for: the pipeline's request, with an absolute, existing cwd. */
const Body = RunRequest.extend({
  cwd: z.string().refine(isAbsolute, "cwd must be an absolute path"),
  /** Relay the agent's permission requests to this client instead of deciding by policy. */
  ask: z.boolean().optional(),
});

const DecisionBody = z.object({ decision: z.enum(["allow", "deny"]) });

async function readBody(c: { req: { json(): Promise<unknown> } }, registry: Registry) {
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    throw new OdError("INVALID_REQUEST", "The body is not valid JSON");
  }
  const parsed = Body.safeParse(raw);
  if (!parsed.success) throw new OdError("INVALID_REQUEST", z.prettifyError(parsed.error));
  const { ask, ...request } = parsed.data;
  if (!registry.get(request.agent))
    throw new OdError("AGENT_UNKNOWN", `No adapter named "${request.agent}"`, "GET /api/agents lists them.");
  let isDir = false;
  try {
    isDir = statSync(request.cwd).isDirectory();
  } catch {}
  if (!isDir) throw new OdError("INVALID_REQUEST", `cwd is not an existing directory: ${request.cwd}`);
  return { request, ask };
}

export function runRoutes(store: RunStore, registry: Registry, heartbeatMs?: number) {
  return new Hono()
    .post("/runs", async (c) => {
      const { request, ask } = await readBody(c, registry);
      return c.json({ runId: store.start(request, { ask }) }, 201);
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
      const { request, ask } = await readBody(c, registry);
      return runEvents(c, store, store.start(request, { ask }), -1, heartbeatMs);
    });
}
