/**
 * An agent's model catalog, and how far it can be trusted. Detection never fetches one
 * (a catalog command costs seconds: `opencode models` 4 s); it is fetched when models
 * are asked for (`listModels`) or a run names a model (the plan stage's check), and
 * cached 24 h per install of the CLI (detect-cache.ts, `models.json`). Detection shows a
 * cached one. The ids live in `models` (`modelSource: "catalog"`); `catalog` says where
 * they came from and whether they are everything the agent accepts. Only an exhaustive
 * catalog lets `od run` refuse a model before spawning (catalog-check.ts); any other
 * list is a hint and the model is passed on.
 *
 * Sources: the CLI's own catalog command (`detect.models`) and, for ACP agents, what
 * `session/new` offers (never prompted); both through the probe queue.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Adapter } from "../contract/adapter.ts";
import type { Mode } from "../contract/events.ts";
import type { Env } from "../contract/request.ts";
import { loopFor } from "../loops/index.ts";
import { probe } from "../os/probe.ts";
import { resolveExecutable } from "../os/resolve.ts";
import type { Listed } from "../protocols/acp-models.ts";
import { probeAcpSession } from "../protocols/acp-probe.ts";
import { DEFAULT_PROBE_MS } from "./detect.ts";
import { type CatalogFields, cachedCatalog, cachedDetection, catalogCachePath, saveCatalog } from "./detect-cache.ts";
import type { CatalogDetection, Detection, ModelCatalog } from "./detection.ts";

/** The plan stage's limit on fetching a catalog for a named model (from the fetch's start, once it has a slot). */
export const CATALOG_CHECK_MS = 10_000;

export type { CatalogDetection, ModelCatalog } from "./detection.ts";

/**
 * Catalog commands that list everything the CLI accepts, by adapter id and command
 * (a plugin replacing the adapter with another command is not trusted on this).
 * pi: `--list-models` lists every model of every provider pi has credentials for; a model of
 * any other provider fails for want of a key, and an unlisted id under a listed provider is
 * passed on (pi takes it as a custom id; see catalog-check.ts for how pi matches `--model`).
 * Others are hints: `codex debug models` hides models, `opencode models` leaves out what a
 * per-run config adds, `cursor-agent models`, `kimi provider list` and `copilot help config`
 * are not documented as complete.
 */
const EXHAUSTIVE: Record<string, { args: string; match: ModelCatalog["match"] }> = {
  pi: { args: "--list-models", match: "pattern" },
};

/** Whether the adapter has a catalog to fetch: a catalog command, an ACP agent's session/new, or od's loop's endpoint. */
export function hasCatalog(adapter: Adapter): boolean {
  if (adapter.protocol.kind === "loop") return Boolean(loopModels(adapter));
  return Boolean(adapter.detect.models) || (adapter.protocol.kind === "driver" && adapter.protocol.driver === "acp");
}

function loopModels(adapter: Adapter) {
  try {
    return loopFor(adapter).models;
  } catch {
    return undefined;
  }
}

/**
 * The adapter's catalog: the cached one (24 h, for this install of the CLI), else fetched
 * now (`refresh`: always) and cached. Nothing for an adapter without one, a CLI that is not
 * installed, an ACP agent detection knows is logged out, or a fetch that failed; a fetch
 * that ran out of time is not cached, so the next ask tries again. Never throws.
 */
export async function catalogOf(
  adapter: Adapter,
  env: Env,
  opts: { refresh?: boolean; timeoutMs?: number; detection?: Detection } = {},
): Promise<CatalogFields> {
  if (!hasCatalog(adapter)) return {};
  const cached = opts.refresh ? undefined : cachedCatalog(adapter, env);
  if (cached) return cached;
  const d = opts.detection ?? cachedDetection(adapter, env);
  let path: string;
  try {
    path =
      adapter.protocol.kind === "loop"
        ? `${adapter.bin} ${loopFor(adapter).endpoint?.(env)}`
        : (d?.path ?? resolveExecutable(adapter, env).path);
  } catch {
    return {};
  }
  const timeoutMs = opts.timeoutMs ?? adapter.detect.timeoutMs ?? DEFAULT_PROBE_MS;
  // Asked twice at once (the server's model list and a run): one fetch.
  const key = JSON.stringify([adapter.id, path, catalogCachePath(env)]);
  let fetching = inFlight.get(key);
  if (!fetching) {
    fetching = fetchCatalog(adapter, { path, flags: d?.flags, auth: d?.auth }, env, timeoutMs)
      .catch(() => ({}))
      .then((fields) => {
        if (fields) saveCatalog(adapter, fields, env);
        return fields ?? {};
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, fetching);
  }
  return fetching;
}

const inFlight = new Map<string, Promise<CatalogFields>>();

/** A detection with the catalog's fields in place of the adapter's aliases (none: the detection as it is). */
export function withCatalog(d: Detection, fields: CatalogFields): CatalogDetection {
  return { ...d, ...fields };
}

/** One fetch, through the probe queue: undefined when the CLI did not answer in time. */
async function fetchCatalog(
  adapter: Adapter,
  cli: { path: string; flags?: string[]; auth?: Detection["auth"] },
  env: Env,
  timeoutMs: number,
): Promise<CatalogFields | undefined> {
  const listed = loopModels(adapter);
  if (listed) {
    // The endpoint's own list: a hint (a server may serve more than it lists); one that cannot be read is not kept.
    const r = await listed(env, { timeoutMs }).catch(() => undefined);
    if (!r) return undefined;
    const catalog: ModelCatalog = { exhaustive: false, match: "exact", from: `\`${r.from}\`` };
    return r.models.length ? { models: r.models, modelSource: "catalog", catalog } : {};
  }
  const command = adapter.detect.models;
  if (command) {
    const r = await probe([cli.path, ...command.args], { env, timeoutMs });
    if (r.timedOut) return undefined;
    if (r.exitCode !== 0) return {};
    const listed = [...new Set((safe(() => command.parse(r.output)) ?? []).filter((m) => typeof m === "string" && VALID_ID.test(m)))];
    return listed.length ? { models: listed, modelSource: "catalog", catalog: commandCatalog(adapter, command.args) } : {};
  }
  if (cli.auth === "missing") return {};
  const started = performance.now();
  const offer = await acpOffer(adapter, cli.path, cli.flags, env, timeoutMs);
  if (!offer && performance.now() - started >= timeoutMs) return undefined;
  return fromOffer(offer);
}

const VALID_ID = /^[\w./:@+-]{1,200}$/;

function safe<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

function commandCatalog(adapter: Adapter, args: string[]): ModelCatalog {
  const command = args.join(" ");
  const known = EXHAUSTIVE[adapter.id];
  const from = `\`${adapter.bin} ${command}\``;
  return known?.args === command ? { exhaustive: true, match: known.match, from } : { exhaustive: false, match: "exact", from };
}

/** The agent's ACP command as a run would start it (least-privileged mode), probed in a fresh temporary folder. */
async function acpOffer(adapter: Adapter, bin: string, flags: string[] | undefined, env: Env, timeoutMs: number) {
  const cwd = mkdtempSync(join(tmpdir(), "od-acp-models-"));
  try {
    const invocation = adapter.invoke({ prompt: "", cwd, mode: probeMode(adapter), bin, flags: flags ? new Set(flags) : undefined });
    return await probeAcpSession({
      cmd: [bin, ...invocation.argv],
      env: { ...env, ...invocation.env },
      cwd,
      timeoutMs,
    });
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

function probeMode(adapter: Adapter): Mode {
  return adapter.capabilities.readOnly ? "read-only" : adapter.capabilities.edit ? "edit" : "full";
}

/** The offer's ids as the catalog (the agent's own list: exhaustive), names where they differ, and its modes. */
function fromOffer(offer: { models: Listed[]; modes: Listed[] } | undefined): CatalogFields {
  if (!offer) return {};
  const listed = offer.models.filter((m) => sane(m.id));
  const models = [...new Set(listed.map((m) => m.id))];
  const names = Object.fromEntries(listed.filter((m) => m.name && m.name !== m.id && sane(m.name)).map((m) => [m.id, m.name!]));
  const modes = [...new Set(offer.modes.map((m) => m.id).filter(sane))];
  const catalog: ModelCatalog = {
    exhaustive: models.length > 0,
    match: "exact",
    from: "ACP session/new",
    ...(Object.keys(names).length ? { names } : {}),
    ...(modes.length ? { modes } : {}),
  };
  if (models.length) return { models, modelSource: "catalog", catalog };
  return modes.length ? { catalog } : {};
}

/** An id or name worth keeping: short, printable, one line. */
function sane(s: string): boolean {
  return s.length > 0 && s.length <= 200 && !/[\x00-\x1f\x7f]/.test(s);
}
