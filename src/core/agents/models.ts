/**
 * An agent's models, the one source every surface reads (the library, `od models`,
 * `GET /api/agents/:id/models`). They once read different places: the server showed
 * an adapter's static aliases while the CLI showed what detection found (pi's
 * `--list-models` catalog), so the web UI offered pi only "default".
 */
import { OdError } from "../errors.ts";
import type { Detection } from "./detect.ts";
import { detectCached } from "./detect-cache.ts";
import type { Registry } from "./registry.ts";

type Env = Record<string, string | undefined>;

export interface ModelList {
  /** "default" first: it passes no model flag, so the agent picks. */
  models: string[];
  efforts: string[];
  /** Where the models came from: the agent's own catalog, the adapter's aliases, or nowhere. */
  source: Detection["modelSource"];
}

/**
 * Through detection (cached 24 h; `refresh` probes again), since a catalog is
 * only known after asking the installed CLI. Throws AGENT_UNKNOWN for an id the
 * registry lacks.
 */
export async function listModels(registry: Registry, agent: string, opts: { env?: Env; refresh?: boolean } = {}): Promise<ModelList> {
  const adapter = registry.get(agent)?.adapter;
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
