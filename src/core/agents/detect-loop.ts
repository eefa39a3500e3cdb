import type { Adapter } from "../contract/adapter.ts";
import { OdError } from "../contract/errors.ts";
import type { Env } from "../contract/request.ts";
import { loopFor } from "../loops/index.ts";
import { VERSION } from "../os/version.ts";
import type { CatalogDetection, Detection } from "./detection.ts";

/** How long detection waits for a loop's endpoint to list its models: a refused connection answers at once. */
export const ENDPOINT_PROBE_MS = 2500;

/**
 * Detection of an adapter that runs inside od: there is no executable to find,
 * so "installed" means "configured": one of its `detect.auth.envKeys` (an API
 * key, or the URL of a local endpoint) is set. Unconfigured it is `missing`, as
 * an uninstalled CLI is. Configured, its endpoint is asked for its models (the
 * loop's `models`): one that answers is `ready` with that list as its catalog;
 * one that cannot be reached is `broken` (ENDPOINT_UNREACHABLE, with its URL and
 * why), a refused key `logged-out`, and an endpoint that lists nothing usable
 * `ready` with a note.
 */
export async function detectLoop(adapter: Adapter, env: Env): Promise<CatalogDetection> {
  const keys = adapter.detect.auth?.envKeys ?? [];
  const configured = keys.some((k) => env[k]);
  const loop = loopFor(adapter);
  let endpoint: string | undefined;
  try {
    endpoint = loop.endpoint?.(env);
  } catch {}
  const base: Detection = {
    id: adapter.id,
    name: adapter.name,
    status: "missing",
    installed: false,
    confident: false,
    auth: configured ? "ok" : "missing",
    login: adapter.login,
    models: adapter.models,
    modelSource: adapter.models.length ? "aliases" : "none",
    efforts: adapter.efforts,
    problems: [],
  };
  if (!configured)
    return {
      ...base,
      problems: [
        { code: "AGENT_NOT_FOUND", message: `${adapter.name} is not configured: none of ${keys.join(", ")} is set`, hint: adapter.install },
      ],
    };
  const ready: Detection = { ...base, status: "ready", installed: true, confident: true, path: endpoint, version: VERSION };
  if (!loop.models) return ready;
  try {
    const { models, from } = await loop.models(env, { timeoutMs: ENDPOINT_PROBE_MS });
    if (models.length)
      return { ...ready, models, modelSource: "catalog", catalog: { exhaustive: false, match: "exact", from: `\`${from}\`` } };
    return {
      ...ready,
      problems: [{ code: "MODELS_UNLISTED", message: `${from} lists no model`, hint: "Pass --model, or set OD_API_MODEL." }],
    };
  } catch (err) {
    const e = OdError.from(err);
    const problem = { code: e.code, message: e.message, hint: e.hint };
    if (e.code === "AGENT_AUTH_REQUIRED") return { ...ready, status: "logged-out", auth: "missing", problems: [problem] };
    // Reachable, but no list to read (a server without /models): usable with a model named.
    if (e.code === "AGENT_ERROR") return { ...ready, problems: [{ ...problem, code: "MODELS_UNLISTED" }] };
    return { ...ready, status: "broken", problems: [problem] };
  }
}
