import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { odHome } from "../os/paths.ts";
import { resolveExecutable } from "../os/resolve.ts";
import { VERSION } from "../version.ts";
import type { Adapter } from "./adapter.ts";
import { type Detection, detectAll } from "./detect.ts";
import { PROBE_SLOW } from "./detection.ts";

type Env = Record<string, string | undefined>;

export const CACHE_TTL_MS = 24 * 60 * 60 * 1000;

interface Entry {
  path: string;
  mtimeMs: number;
  at: number;
  detection: Detection;
}

interface CacheFile {
  odVersion: string;
  entries: Record<string, Entry>;
}

export interface CachedDetections {
  detections: Detection[];
  /** Ids answered from the cache. */
  cached: string[];
}

export function cachePath(env: Env = process.env): string {
  return join(odHome(env), "agents.json");
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
  const cache = opts.refresh ? empty() : load(file);
  const hits = new Map<string, Detection>();
  const keys = new Map<string, { path: string; mtimeMs: number }>();
  for (const adapter of adapters) {
    const key = keyOf(adapter, env);
    if (!key) continue;
    keys.set(adapter.id, key);
    const entry = cache.entries[adapter.id];
    if (entry && entry.path === key.path && entry.mtimeMs === key.mtimeMs && now - entry.at < CACHE_TTL_MS && now >= entry.at)
      hits.set(adapter.id, entry.detection);
  }
  const probed = await detectAll(
    adapters.filter((a) => !hits.has(a.id)),
    env,
  );
  const fresh: CacheFile = { odVersion: VERSION, entries: {} };
  for (const [id] of hits) fresh.entries[id] = cache.entries[id]!;
  for (const detection of probed) {
    const key = keys.get(detection.id);
    // A probe too slow to answer says nothing worth keeping for 24 h: the next look asks again.
    if (key && !detection.problems.some((p) => p.code === PROBE_SLOW)) fresh.entries[detection.id] = { ...key, at: now, detection };
  }
  save(file, fresh);
  const byId = new Map([...hits, ...probed.map((d) => [d.id, d] as const)]);
  return { detections: adapters.map((a) => byId.get(a.id)!), cached: [...hits.keys()] };
}

/** A fresh cached detection for one adapter, without probing anything; undefined when there is none. */
export function cachedDetection(adapter: Adapter, env: Env = process.env, now = Date.now()): Detection | undefined {
  const key = keyOf(adapter, env);
  const entry = key ? load(cachePath(env)).entries[adapter.id] : undefined;
  if (!key || !entry || entry.path !== key.path || entry.mtimeMs !== key.mtimeMs || now - entry.at >= CACHE_TTL_MS) return undefined;
  return entry.detection;
}

function keyOf(adapter: Adapter, env: Env): { path: string; mtimeMs: number } | undefined {
  if (adapter.protocol.kind === "loop") return undefined; // detected from the environment each time, never cached
  try {
    const path = resolveExecutable(adapter, env).path;
    return { path, mtimeMs: statSync(path).mtimeMs };
  } catch {
    return undefined; // not installed: nothing worth caching, resolution is cheap
  }
}

function empty(): CacheFile {
  return { odVersion: VERSION, entries: {} };
}

function load(file: string): CacheFile {
  try {
    const data = JSON.parse(readFileSync(file, "utf8")) as CacheFile;
    if (data?.odVersion !== VERSION || typeof data.entries !== "object" || data.entries === null) return empty();
    return data;
  } catch {
    return empty();
  }
}

function save(file: string, data: CacheFile): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(data, null, 2));
    renameSync(tmp, file);
  } catch {
    // A read-only home only costs the next run a fresh probe.
  }
}
