import type { Adapter, AdapterInput } from "./adapter.ts";

/**
 * A built-in adapter as `validateAdapter` would give it, its defaults filled without zod: validating
 * all 43 cost `od agents` about a third of its start (building the schema, then a parse each), for
 * adapters compiled into od and held to the schema by the conformance suite, which also checks that
 * this gives what the schema gives for every built-in (a default added there and not here fails it).
 * Plugins are still validated: their values come from a file anyone may have written.
 */
export function withDefaults(a: AdapterInput): Adapter {
  const caps = a.capabilities;
  return {
    ...a,
    fallbackBins: a.fallbackBins ?? [],
    version: { ...a.version, args: a.version?.args ?? ["--version"] },
    state: a.state ?? [],
    lockedState: a.lockedState ?? [],
    detect: detectDefaults(a.detect),
    models: a.models ?? [],
    efforts: a.efforts ?? [],
    capabilities: {
      ...caps,
      images: caps.images ?? false,
      edit: caps.edit ?? true,
      relayApprovals: caps.relayApprovals ?? false,
      ownSandbox: caps.ownSandbox ?? false,
      roles: caps.roles ?? false,
      allowedTools: caps.allowedTools ?? false,
      maxTurns: caps.maxTurns ?? false,
      mcpServers: caps.mcpServers ?? false,
      skills: caps.skills ?? "prompt",
    },
  } as Adapter;
}

function detectDefaults(d: AdapterInput["detect"] = {}): Adapter["detect"] {
  const { help, auth, ...rest } = d;
  const out: Adapter["detect"] = rest;
  if (help) out.help = { ...help, args: help.args ?? ["--help"], since: help.since ?? {}, seenIn: help.seenIn ?? {} };
  if (auth) out.auth = { ...auth, envKeys: auth.envKeys ?? [], files: auth.files ?? [], complete: auth.complete ?? false };
  return out;
}
