import type { Adapter } from "../contract/adapter.ts";
import type { Env } from "../contract/request.ts";
import { loopFor } from "../loops/index.ts";
import { VERSION } from "../os/version.ts";
import type { Detection } from "./detection.ts";

/**
 * Detection of an adapter that runs inside od: there is no executable to find,
 * so "installed" means "configured": one of its `detect.auth.envKeys` (an API
 * key, or the URL of a local endpoint) is set. Unconfigured it is `missing`, as
 * an uninstalled CLI is; configured it is `ready`, at its endpoint, with od's version.
 */
export function detectLoop(adapter: Adapter, env: Env): Detection {
  const keys = adapter.detect.auth?.envKeys ?? [];
  const configured = keys.some((k) => env[k]);
  let endpoint: string | undefined;
  try {
    endpoint = loopFor(adapter).endpoint?.(env);
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
  return { ...base, status: "ready", installed: true, confident: true, path: endpoint, version: VERSION };
}
