import { mkdirSync, readFileSync, realpathSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Adapter } from "../contract/adapter.ts";
import type { Env } from "../contract/request.ts";
import { loopFor } from "../loops/index.ts";
import { odHome } from "../os/paths.ts";
import { findOnPath, type Resolved, resolveExecutable, toolPath } from "../os/resolve.ts";
import { VERSION } from "../os/version.ts";
import { type Detection, detectAll } from "./detect.ts";
import type { CatalogDetection } from "./detection.ts";
import { PROBE_SLOW } from "./detection.ts";

export const CACHE_TTL_MS = 24 * 60 * 60 * 1000;

interface Entry {
  path: string;
  mtimeMs: number;
  at: number;
  /** The Node on PATH when it was detected (`nodeOf`): a package's verdict hangs on it (its `engines`). */
  node?: string;
  detection: Detection;
}

/** What a catalog fetch found (nothing, for a CLI that answered with no list), cached in `models.json`. */
export type CatalogFields = Partial<Pick<CatalogDetection, "models" | "modelSource" | "catalog">>;

interface CatalogEntry {
  path: string;
  mtimeMs: number;
  at: number;
  fields: CatalogFields;
}

interface CacheFile<E = Entry> {
  odVersion: string;
  entries: Record<string, E>;
}

type Key = { path: string; mtimeMs: number };

export interface CachedDetections {
  detections: Detection[];
  /** Ids answered from the cache. */
  cached: string[];
}

export function cachePath(env: Env = process.env): string {
  return join(odHome(env), "agents.json");
}

/** Model catalogs, apart from detection: fetched only when models are asked for or a model is named. */
export function catalogCachePath(env: Env = process.env): string {
  return join(odHome(env), "models.json");
}

/**
 * Detection through `~/.open-design/agents.json`: an entry is reused for 24 h
 * while the binary's path and mtime and od's version are unchanged; anything
 * else is detected again and written back, but for a detection whose probe did
 * not answer in time. A corrupt or unreadable cache is ignored and rewritten, never fatal.
 */
export async function detectCached(
  adapters: Adapter[],
  opts: { env?: Env; refresh?: boolean; now?: number } = {},
): Promise<CachedDetections> {
  const env = opts.env ?? process.env;
  const now = opts.now ?? Date.now();
  const file = cachePath(env);
  const before = opts.refresh ? undefined : readText(file);
  const cache: CacheFile = opts.refresh ? empty() : parse(before);
  const hits = new Map<string, Detection>();
  const keys = new Map<string, { path: string; mtimeMs: number }>();
  const resolve = resolveOnce(env);
  const node = nodeOf(env);
  for (const adapter of adapters) {
    const key = keyOf(adapter, env, resolve);
    if (!key) continue;
    keys.set(adapter.id, key);
    const entry = cache.entries[adapter.id];
    if (entry && fresh(entry, key, now) && entry.node === node) hits.set(adapter.id, entry.detection);
  }
  const probed = await detectAll(
    adapters.filter((a) => !hits.has(a.id)),
    env,
    { resolve },
  );
  const next: CacheFile = { odVersion: VERSION, entries: {} };
  for (const [id] of hits) next.entries[id] = cache.entries[id]!;
  for (const detection of probed) {
    const key = keys.get(detection.id);
    // A probe too slow to answer, an endpoint down: nothing worth keeping for 24 h, the next look asks again.
    if (key && !detection.problems.some((p) => UNKEPT.has(p.code))) next.entries[detection.id] = { ...key, at: now, node, detection };
  }
  // Written only when it changed: a cached `od agents` rewrote the same bytes on every start. Every
  // entry of the file a hit, and nothing probed kept (a CLI not installed, a loop not configured, is
  // detected each time and never kept): the same entries, not even serialized to compare.
  const size = Object.keys(next.entries).length;
  const unchanged = before !== undefined && size === hits.size && size === Object.keys(cache.entries).length;
  if (!unchanged && JSON.stringify(next, null, 2) !== before) save(file, next);
  // A loop's probe asked its endpoint for its models: that list is its catalog, kept as every catalog is.
  for (const d of probed as CatalogDetection[])
    if (d.modelSource === "catalog" && keys.has(d.id)) {
      const adapter = adapters.find((a) => a.id === d.id)!;
      if (adapter.protocol.kind === "loop")
        saveCatalog(adapter, { models: d.models, modelSource: d.modelSource, catalog: d.catalog }, env, now);
    }
  const byId = new Map([...hits, ...probed.map((d) => [d.id, d] as const)]);
  // A catalog already fetched is shown (read from its cache); none is fetched here.
  const catalogs = load<CatalogEntry>(catalogCachePath(env));
  const withCatalog = (a: Adapter) => {
    const d = byId.get(a.id)!;
    const key = keys.get(a.id);
    const entry = catalogs.entries[a.id];
    return key && fresh(entry, key, now) ? { ...d, ...entry!.fields } : d;
  };
  return { detections: adapters.map(withCatalog), cached: [...hits.keys()] };
}

/** A fresh cached detection for one adapter, without probing anything; undefined when there is none. */
export function cachedDetection(adapter: Adapter, env: Env = process.env, now = Date.now()): Detection | undefined {
  const key = keyOf(adapter, env);
  const entry = key ? load(cachePath(env)).entries[adapter.id] : undefined;
  return key && fresh(entry, key, now) && entry!.node === nodeOf(env) ? entry!.detection : undefined;
}

/**
 * The Node on PATH, as its real path and mtime ("" for none): another one (`nvm use`, an upgrade)
 * can change whether a package runs (kimi 2.1 needs 22.19), so a detection made under another is redone.
 */
function nodeOf(env: Env): string {
  const node = findOnPath("node", env);
  if (!node) return "";
  try {
    const real = realpathSync(node);
    return `${real} ${statSync(real).mtimeMs}`;
  } catch {
    return node;
  }
}

/** The adapter's cached catalog (24 h, for this install of the CLI and this od); undefined when none was fetched. */
export function cachedCatalog(adapter: Adapter, env: Env = process.env, now = Date.now()): CatalogFields | undefined {
  const key = keyOf(adapter, env);
  const entry = key ? load<CatalogEntry>(catalogCachePath(env)).entries[adapter.id] : undefined;
  return key && fresh(entry, key, now) ? entry!.fields : undefined;
}

/** Keeps what a catalog fetch found, for the installed CLI it asked. */
export function saveCatalog(adapter: Adapter, fields: CatalogFields, env: Env = process.env, now = Date.now()): void {
  const key = keyOf(adapter, env);
  if (!key) return;
  const file = catalogCachePath(env);
  const cache = load<CatalogEntry>(file);
  cache.entries[adapter.id] = { ...key, at: now, fields };
  save(file, cache);
}

function fresh(entry: { path: string; mtimeMs: number; at: number } | undefined, key: Key, now: number): boolean {
  return Boolean(entry && entry.path === key.path && entry.mtimeMs === key.mtimeMs && now - entry.at < CACHE_TTL_MS && now >= entry.at);
}

/** Problems that say "ask again next time": a probe too slow, an endpoint that could not be reached. */
const UNKEPT = new Set([PROBE_SLOW, "ENDPOINT_UNREACHABLE"]);

/** Each adapter's executable looked up once, for its key and its detection; not found is thrown again as it was. */
function resolveOnce(env: Env): (adapter: Adapter) => Resolved {
  const found = new Map<string, { ok: Resolved } | { err: unknown }>();
  let tools: string | undefined;
  return (adapter) => {
    let r = found.get(adapter.id);
    if (!r) {
      tools ??= toolPath(env);
      try {
        r = { ok: resolveExecutable(adapter, env, tools) };
      } catch (err) {
        r = { err };
      }
      found.set(adapter.id, r);
    }
    if ("err" in r) throw r.err;
    return r.ok;
  };
}

function keyOf(adapter: Adapter, env: Env, resolve = (a: Adapter) => resolveExecutable(a, env)): Key | undefined {
  if (adapter.protocol.kind === "loop") return loopKey(adapter, env);
  try {
    const path = resolve(adapter).path;
    return { path, mtimeMs: statSync(path).mtimeMs };
  } catch {
    return undefined; // not installed: nothing worth caching, resolution is cheap
  }
}

/**
 * A loop has no executable: what it is is its endpoint and the settings that choose it (a key, a
 * URL), the values kept only as a digest (Bun's own hasher: node:crypto costs ~15 ms to import).
 * Unconfigured (no endpoint): nothing cached.
 */
function loopKey(adapter: Adapter, env: Env): Key | undefined {
  let endpoint: string | undefined;
  try {
    endpoint = loopFor(adapter).endpoint?.(env);
  } catch {
    return undefined;
  }
  if (!endpoint) return undefined;
  const settings = (adapter.detect.auth?.envKeys ?? []).map((k) => env[k] ?? "").join("\0");
  return { path: `${endpoint} #${new Bun.CryptoHasher("sha256").update(settings).digest("hex").slice(0, 16)}`, mtimeMs: 0 };
}

function empty<E>(): CacheFile<E> {
  return { odVersion: VERSION, entries: {} };
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

function load<E = Entry>(file: string): CacheFile<E> {
  return parse<E>(readText(file));
}

function parse<E = Entry>(text: string | undefined): CacheFile<E> {
  try {
    const data = JSON.parse(text ?? "") as CacheFile<E>;
    if (data?.odVersion !== VERSION || typeof data.entries !== "object" || data.entries === null) return empty();
    return data;
  } catch {
    return empty();
  }
}

function save<E>(file: string, data: CacheFile<E>): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(data, null, 2));
    renameSync(tmp, file);
  } catch {
    // A read-only home only costs the next run a fresh probe.
  }
}
