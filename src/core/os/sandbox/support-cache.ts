/**
 * What the kernel can hold, as the helper last found it: the line under `od agents`, a dry run's
 * plan and a run's. Finding it runs the helper's probe (a process, a third of a cached `od agents`);
 * what it finds changes only with what is keyed here (this boot, this od, the namespaces and the
 * seccomp state od runs in, the sysctls on user namespaces). `od agents` and a run keep what they
 * find; a dry run only reads it (it writes nothing). Only a Landlock answer is kept (one that says
 * "none" may be a helper that failed once): anything else is probed each time. A run trusts only a
 * kept answer that cannot weaken it (`runSandboxSupport`).
 */
import { mkdirSync, readFileSync, readlinkSync, renameSync, statSync, writeFileSync } from "node:fs";
import { release } from "node:os";
import { dirname, join } from "node:path";
import type { Env } from "../../contract/request.ts";
import { odHome } from "../paths.ts";
import { VERSION } from "../version.ts";
import { type Support, sandboxSupport } from "./choose.ts";

export function supportCachePath(env: Env = process.env): string {
  return join(odHome(env), "sandbox.json");
}

/** Files whose content decides what the probe finds (a missing one is read as empty). */
const KEY_FILES = [
  "/proc/sys/kernel/random/boot_id",
  "/proc/sys/user/max_user_namespaces",
  "/proc/sys/kernel/unprivileged_userns_clone",
  "/proc/sys/kernel/apparmor_restrict_unprivileged_userns",
];

const read = (f: () => string) => {
  try {
    return f();
  } catch {
    return "";
  }
};

/** Everything the probe's answer depends on, as one string; undefined where there is no boot id to key it by. */
export function machineKey(): string | undefined {
  const [boot, ...sysctls] = KEY_FILES.map((f) => read(() => readFileSync(f, "utf8").trim()));
  if (!boot) return undefined;
  const status = read(() => readFileSync("/proc/self/status", "utf8"))
    .split("\n")
    .filter((l) => /^(Seccomp|Seccomp_filters|NoNewPrivs|Uid):/.test(l))
    .join(";");
  const ns = ["user", "mnt"].map((n) => read(() => readlinkSync(`/proc/self/ns/${n}`)));
  const od = read(() => `${process.execPath}@${statSync(process.execPath).mtimeMs}`);
  return [VERSION, od, boot, release(), ...ns, status, ...sysctls].join("|");
}

export interface SupportCacheOptions {
  /** Write what a probe finds (`od agents`); a dry run reads only. */
  keep?: boolean;
  probe?: () => Support;
  key?: () => string | undefined;
}

/** This machine's support, from the cache when its key still holds, else probed (and, with `keep`, kept when it is Landlock). */
export function cachedSandboxSupport(env: Env = process.env, opts: SupportCacheOptions = {}): Support {
  const { keep = false, probe = () => sandboxSupport(), key = machineKey } = opts;
  if (process.platform !== "linux") return probe();
  const k = key();
  if (!k) return probe();
  const file = supportCachePath(env);
  const kept = read(() => readFileSync(file, "utf8"));
  try {
    const cache = JSON.parse(kept) as { key?: unknown; support?: unknown };
    const support = cache.key === k ? landlockOf(cache.support) : undefined;
    if (support) return support;
  } catch {
    // none yet, or unreadable: probe
  }
  const support = probe();
  if (keep && support.kind === "landlock")
    try {
      mkdirSync(dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify({ key: k, support }));
      renameSync(tmp, file);
    } catch {
      // a read-only home only costs the next look a probe
    }
  return support;
}

/**
 * A run's support. `sandbox.json` is anyone's to write, a full-mode agent's too, key and all: so a
 * run takes a kept answer only when it is the whole one (Landlock, and a .git it can hold read-only),
 * which cannot make the run weaker than a probe would (a whole answer that no longer held fails
 * closed: the helper refuses to start an agent it cannot restrict). Anything less is probed.
 */
export function runSandboxSupport(env: Env = process.env, opts: Omit<SupportCacheOptions, "keep"> = {}): Support {
  const kept = cachedSandboxSupport(env, { ...opts, keep: true });
  if (kept.kind === "landlock" && kept.protect === true) return kept;
  return (opts.probe ?? (() => sandboxSupport()))(); // once per process: the helper's facts are kept in memory
}

/** A kept Landlock answer, its fields checked and copied (the file is anyone's to edit); undefined when it is not one. */
function landlockOf(value: unknown): Support | undefined {
  const v = value as Record<string, unknown> | null;
  if (v?.kind !== "landlock" || !Number.isInteger(v.abi) || typeof v.protect !== "boolean") return undefined;
  if (v.reason !== undefined && typeof v.reason !== "string") return undefined;
  const support: Support = { kind: "landlock", abi: v.abi as number, protect: v.protect };
  if (v.reason !== undefined) support.reason = v.reason;
  return support;
}
