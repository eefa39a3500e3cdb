import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { CACHE_TTL_MS, type CachedDetections } from "../agents/detect-cache.ts";
import { type Detection, PROBE_SLOW } from "../agents/detection.ts";
import type { Adapter } from "../contract/adapter.ts";
import type { Env } from "../contract/request.ts";
import { odHome } from "../os/paths.ts";
import { VERSION } from "../os/version.ts";
import { detectOnTarget } from "./detect.ts";
import { formatTarget, type Target } from "./target.ts";

interface TargetEntry {
  at: number;
  detections: Detection[];
}

interface RemoteCache {
  odVersion: string;
  targets: Record<string, TargetEntry>;
}

export function remoteCachePath(env: Env = process.env): string {
  return join(odHome(env), "targets-agents.json");
}

/**
 * Detection on a target through `~/.open-design/targets-agents.json`, keyed by the target as
 * written (`ssh://user@host:22`): a target's answer is reused for 24 h while od's version and the
 * adapters asked about are unchanged (nothing cheaper than the probe itself could tell that a
 * remote CLI changed: `--refresh` asks again). One round trip answers for every adapter; an answer
 * with a probe too slow to finish is not kept. An unreachable target throws TARGET_UNREACHABLE.
 */
export async function detectOnTargetCached(
  adapters: Adapter[],
  target: Target,
  opts: { env?: Env; refresh?: boolean; now?: number } = {},
): Promise<CachedDetections> {
  const env = opts.env ?? process.env;
  const now = opts.now ?? Date.now();
  const key = formatTarget(target);
  const file = remoteCachePath(env);
  const cache = load(file);
  const clis = adapters.filter((a) => a.protocol.kind !== "loop");
  const entry = cache.targets[key];
  if (!opts.refresh && entry && fresh(entry, clis, now)) {
    const byId = new Map(entry.detections.map((d) => [d.id, d]));
    return { detections: clis.map((a) => byId.get(a.id)!), cached: clis.map((a) => a.id) };
  }
  const detections = await detectOnTarget(clis, target, env);
  if (!detections.some((d) => d.problems.some((p) => p.code === PROBE_SLOW))) {
    cache.targets[key] = { at: now, detections };
    save(file, cache);
  }
  return { detections, cached: [] };
}

function fresh(entry: TargetEntry, adapters: Adapter[], now: number): boolean {
  if (now < entry.at || now - entry.at >= CACHE_TTL_MS) return false;
  const ids = new Set(entry.detections.map((d) => d.id));
  return adapters.every((a) => ids.has(a.id));
}

function load(file: string): RemoteCache {
  try {
    const data = JSON.parse(readFileSync(file, "utf8")) as RemoteCache;
    if (data?.odVersion === VERSION && typeof data.targets === "object" && data.targets !== null) return data;
  } catch {}
  return { odVersion: VERSION, targets: {} };
}

function save(file: string, data: RemoteCache): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(data, null, 2));
    renameSync(tmp, file);
  } catch {
    // A read-only home only costs the next look a fresh probe.
  }
}
