import { Hono } from "hono";
import { loadSkills } from "../../builtins.ts";
import { detectCached } from "../../core/agents/detect-cache.ts";
import { listModels } from "../../core/agents/models.ts";
import type { Registry } from "../../core/agents/registry.ts";
import { eventJsonSchema } from "../../core/contract/events.ts";
import { VERSION } from "../../core/os/version.ts";
import { keepOpen } from "../connections.ts";
import { installHints } from "../setup.ts";

/** Probing every agent (or one agent's models) may take longer than an idle connection is kept. */
const PROBE_TIMEOUT_S = 120;

/** Health, version, the event schema, and what agents this machine has (and how to install those it lacks). */
export function metaRoutes(registry: Registry, env?: Record<string, string | undefined>) {
  return new Hono()
    .get("/health", (c) => c.json({ ok: true }))
    .get("/version", (c) => c.json({ version: VERSION, cwd: process.cwd() }))
    .get("/schema/events", (c) => c.json(eventJsonSchema()))
    .get("/skills", async (c) => {
      const catalog = await loadSkills([], env);
      return c.json({ skills: [...catalog.skills.values()].map((s) => ({ ...s.meta, source: s.source })), errors: catalog.errors });
    })
    .get("/agents", async (c) => {
      keepOpen(c, PROBE_TIMEOUT_S);
      // The disk cache answers in milliseconds; ?refresh=1 probes again.
      const { detections: found } = await detectCached(
        registry.list().map((e) => e.adapter),
        { env, refresh: Boolean(c.req.query("refresh")) },
      );
      const byId = new Map(registry.list().map((e) => [e.adapter.id, e.adapter]));
      const agents = found.map((d) => ({
        ...d,
        install: byId.get(d.id)?.install,
        modes: byId.get(d.id)?.capabilities.readOnly ? ["read-only", "edit", "full"] : ["edit", "full"],
      }));
      // With no agent ready the page says how to get one: the install commands for the server's platform.
      return c.json({ agents, pluginErrors: registry.errors, platform: process.platform, install: installHints(agents) });
    })
    .get("/agents/:id/models", async (c) => {
      // What `od models --agent <id> --json` prints: detection's models (pi's catalog), not the adapter's aliases.
      keepOpen(c, PROBE_TIMEOUT_S);
      const agent = c.req.param("id");
      return c.json({ agent, ...(await listModels(registry, agent, { env, refresh: Boolean(c.req.query("refresh")) })) });
    });
}
