/**
 * The plan stage's model check: a model an exhaustive catalog does not match is
 * refused before anything is written or spawned (`--dry-run` too). The catalog is
 * the cached one, or fetched once when a run names a model and none is cached
 * (bounded, CATALOG_CHECK_MS; catalog.ts). No catalog (none fetched: a timeout, an
 * error, logged out), a catalog that is only a hint, and `default` all let the model pass.
 */

import type { Adapter } from "../contract/adapter.ts";
import { OdError } from "../contract/errors.ts";
import type { CatalogDetection, ModelCatalog } from "./catalog.ts";

/** How many valid models the hint names before "…and N more". */
export const SHOWN_MODELS = 20;

export function catalogRefusal(
  adapter: Pick<Adapter, "id" | "name">,
  detection: Partial<Pick<CatalogDetection, "models" | "modelSource" | "catalog">> | undefined,
  model: string | undefined,
): OdError | undefined {
  if (!model || model === "default" || detection?.modelSource !== "catalog") return undefined;
  const { catalog, models = [] } = detection;
  if (!catalog?.exhaustive || !models.length || catalogAccepts(catalog, models, model)) return undefined;
  const more = models.length > SHOWN_MODELS ? ` …and ${models.length - SHOWN_MODELS} more; see \`od models --agent ${adapter.id}\`` : "";
  return new OdError(
    "MODEL_NOT_AVAILABLE",
    `${adapter.name} has no model "${model}": ${catalog.from} does not list it`,
    `Valid models: ${models.slice(0, SHOWN_MODELS).join(", ")}${more}. "default" lets the agent choose; ` +
      `\`od models --agent ${adapter.id} --refresh\` reads the list again (od keeps it up to 24 h).`,
  );
}

/** Whether a requested model is one the catalog lists, matched the way the agent resolves it. */
export function catalogAccepts(catalog: Pick<ModelCatalog, "match" | "names">, models: string[], model: string): boolean {
  if (catalog.match === "pattern") return patternAccepts(models, model);
  return models.includes(model) || Object.values(catalog.names ?? {}).includes(model);
}

/**
 * pi's `--model` over its `provider/id` list: case-insensitive; any id under a listed
 * provider (pi takes an unknown one as a custom id); a whole entry or a part of an id
 * ("sonnet"); and a `:suffix` (a thinking level, `sonnet:high`) tried off when nothing matches.
 */
function patternAccepts(models: string[], model: string): boolean {
  const entries = models.map((m) => {
    const full = m.toLowerCase();
    const slash = full.indexOf("/");
    return { full, provider: full.slice(0, Math.max(slash, 0)), id: full.slice(slash + 1) };
  });
  const wanted = model.toLowerCase();
  const slash = wanted.indexOf("/");
  if (slash > 0 && entries.some((e) => e.provider === wanted.slice(0, slash))) return true;
  for (let pattern = wanted; pattern; ) {
    const p = pattern;
    if (entries.some((e) => e.full === p || e.id.includes(p))) return true;
    const colon = pattern.lastIndexOf(":");
    if (colon < 0) return false;
    pattern = pattern.slice(0, colon);
  }
  return false;
}
