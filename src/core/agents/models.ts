/**
 * An agent's models, the one source every surface reads (the library, `od models`,
 * `GET /api/agents/:id/models`). They once read different places: the server showed
 * an adapter's static aliases while the CLI showed what detection found (pi's
 * `--list-models` catalog), so the web UI offered pi only "default".
 */
import { OdError } from "../contract/errors.ts";
import type { Env } from "../contract/request.ts";
import { type CatalogDetection, catalogOf, hasCatalog, withCatalog } from "./catalog.ts";
import type { Detection } from "./detect.ts";
import { detectCached } from "./detect-cache.ts";
import type { Registry } from "./registry.ts";

export interface ModelList {
  /** "default" first: it passes no model flag, so the agent picks. */
  models: string[];
  efforts: string[];
  /** Where the models came from: the agent's own catalog, the adapter's aliases, or nowhere. */
  source: Detection["modelSource"];
  /**
   * For a catalog: true when it is everything the agent accepts (`od run` refuses any other
   * model before starting it), false when it is a hint (other ids are passed on).
   */
  exhaustive?: boolean;
  /** The catalog's origin, for people ("`pi --list-models`", "ACP session/new"). */
  from?: string;
  /** Display names by id, where an ACP agent gives them (a run takes either). */
  names?: Record<string, string>;
  /** Session modes an ACP agent offers. */
  modes?: string[];
}

/**
 * Through detection (cached 24 h; `refresh` probes again) and the agent's catalog,
 * fetched here when none is cached (cached 24 h too; `refresh` fetches it again),
 * since a catalog is only known after asking the installed CLI; od's own loop lists
 * what its endpoint lists (detection asks it). Throws AGENT_UNKNOWN for an id the
 * registry lacks; with `strict` (`od models`), ENDPOINT_UNREACHABLE for a loop whose
 * endpoint cannot be reached, where the others answer with `default` alone.
 */
export async function listModels(
  registry: Registry,
  agent: string,
  opts: { env?: Env; refresh?: boolean; strict?: boolean } = {},
): Promise<ModelList> {
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
  const env = opts.env ?? process.env;
  const [d] = (await detectCached([adapter], { env, refresh: opts.refresh })).detections;
  // od's own loop asked its endpoint as it was detected: its list came with it (an endpoint down has none).
  const unreachable = d!.problems.find((p) => p.code === "ENDPOINT_UNREACHABLE");
  if (unreachable && opts.strict) throw new OdError("ENDPOINT_UNREACHABLE", unreachable.message, unreachable.hint);
  if (!hasCatalog(adapter) || adapter.protocol.kind === "loop") return modelListOf(d!);
  const fields = await catalogOf(adapter, env, { refresh: opts.refresh, detection: d });
  // The detection as probed (the adapter's aliases), with what the catalog holds now.
  const base = { ...d!, models: adapter.models, modelSource: adapter.models.length ? ("aliases" as const) : ("none" as const) };
  return modelListOf(withCatalog({ ...base, catalog: undefined } as CatalogDetection, fields));
}

/** A detection's models as every surface shows them; an agent that lists "default" itself is not shown it twice. */
export function modelListOf(d: CatalogDetection): ModelList {
  const catalog = d.modelSource === "catalog" ? d.catalog : undefined;
  return {
    models: [...new Set(["default", ...d.models])],
    efforts: d.efforts,
    source: d.modelSource,
    ...(d.modelSource === "catalog" ? { exhaustive: Boolean(catalog?.exhaustive) } : {}),
    ...(catalog ? { from: catalog.from } : {}),
    ...(catalog?.names ? { names: catalog.names } : {}),
    ...(d.catalog?.modes ? { modes: d.catalog.modes } : {}),
  };
}
