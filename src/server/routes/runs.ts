import { statSync } from "node:fs";
import { isAbsolute } from "node:path";
import { Hono } from "hono";
import { z } from "zod";
import { OdError } from "../../core/errors.ts";
import type { Registry } from "../../core/registry.ts";
import { RunRequest } from "../../core/run.ts";
import type { RunStore } from "../runs.ts";
import { resumeAfter, runEvents } from "../sse.ts";

/** What a client may ask for: the pipeline's request, with an absolute, existing cwd. */
const Body = RunRequest.extend({
  cwd: z.string().refine(isAbsolute, "cwd must be an absolute path"),
  skills: z.array(z.string()).optional(),
});

async function readBody(c: { req: { json(): Promise<unknown> } }, registry: Registry) {
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    throw new OdError("INVALID_REQUEST", "The body is not valid JSON");
  }
  const parsed = Body.safeParse(raw);
  if (!parsed.success) throw new OdError("INVALID_REQUEST", z.prettifyError(parsed.error));
  const { skills: _skills, ...request } = parsed.data;
  if (!registry.get(request.agent)) throw new OdError("AGENT_UNKNOWN", `No adapter named "${request.agent}"`, "GET /api/agents lists them.");
  let isDir = false;
  try {
    isDir = statSync(request.cwd).isDirectory();
  } catch {}
  if (!isDir) throw new OdError("INVALID_REQUEST", `cwd is not an existing directory: ${request.cwd}`);
  return request;
}

export function runRoutes(store: RunStore, registry: Registry, heartbeatMs?: number) {
  return new Hono()
    .post("/runs", async (c) => c.json({ runId: store.start(await readBody(c, registry)) }, 201))
    .get("/runs", (c) => c.json({ runs: store.list(Number(c.req.query("limit") ?? 50) || 50) }))
    .get("/runs/:id", (c) => c.json(store.summary(c.req.param("id"))))
    .get("/runs/:id/events", (c) => runEvents(c, store, c.req.param("id"), resumeAfter(c), heartbeatMs))
    .post("/runs/:id/cancel", (c) => c.json({ cancelled: store.cancel(c.req.param("id")) }, 202))
    .post("/chat", async (c) => runEvents(c, store, store.start(await readBody(c, registry)), -1, heartbeatMs));
}
