import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { OdError } from "../errors.ts";
import { probe } from "../os/probe.ts";
import { resolveExecutable } from "../os/resolve.ts";
import type { Adapter, AuthState } from "./adapter.ts";
import { detectLoop } from "./detect-loop.ts";
import type { Detection } from "./detection.ts";

type Env = Record<string, string | undefined>;

export const DEFAULT_PROBE_MS = 3000;

export type { Detection, Problem } from "./detection.ts";

/** Detects every adapter at once: total time is about the slowest probe, not the sum. One failing probe never hurts the others. */
export function detectAll(adapters: Adapter[], env: Env = process.env): Promise<Detection[]> {
  return Promise.all(adapters.map((a) => detectOne(a, env).catch((err) => crashed(a, err))));
}

export async function detectOne(adapter: Adapter, env: Env = process.env): Promise<Detection> {
  if (adapter.protocol.kind === "loop") return detectLoop(adapter, env); // no executable: configured or not
  const base = baseOf(adapter, env);
  let path: string;
  let via: Detection["via"];
  try {
    ({ path, via } = resolveExecutable(adapter, env));
  } catch (err) {
    const e = OdError.from(err);
    return { ...base, status: "missing", problems: [{ code: e.code, message: e.message, hint: e.hint }] };
  }
  const timeoutMs = adapter.detect.timeoutMs ?? DEFAULT_PROBE_MS;
  // Probes that share a command (pi's auth and model catalog are both `--list-models`) run once.
  const runs = new Map<string, ReturnType<typeof probe>>();
  const run = (args: string[]) => {
    const key = JSON.stringify(args);
    if (!runs.has(key)) runs.set(key, probe([path, ...args], { env, timeoutMs }));
    return runs.get(key)!;
  };
  const [version, help, auth, models] = await Promise.all([
    run(adapter.version.args),
    adapter.detect.help ? run(adapter.detect.help.args) : undefined,
    authState(adapter, env, run),
    adapter.detect.models ? run(adapter.detect.models.args) : undefined,
  ]);

  const d: Detection = { ...base, path, via };
  if (version.failedToStart || version.timedOut || version.exitCode === 126 || version.exitCode === 127 || version.exitCode !== 0) {
    const why = version.failedToStart
      ? "cannot be started"
      : version.timedOut
        ? `did not answer within ${timeoutMs} ms`
        : `exited with ${version.exitCode}`;
    return {
      ...d,
      status: version.failedToStart || version.exitCode === 126 || version.exitCode === 127 ? "missing" : "broken",
      problems: [
        {
          code: "AGENT_NOT_FOUND",
          message: `\`${path} ${adapter.version.args.join(" ")}\` ${why}`,
          hint: `Reinstall with \`${adapter.install}\`.`,
        },
      ],
    };
  }
  d.installed = true;
  d.version =
    safe(() => adapter.version.parse?.(version.output)) ??
    version.output.match(/\d+\.\d+(\.\d+)?[\w.+-]*/)?.[0] ??
    version.output.split("\n")[0];
  d.confident = !adapter.detect.configDir || d.configDir !== undefined;
  if (help && adapter.detect.help)
    d.flags = adapter.detect.help.flags.filter((f) => new RegExp(`(^|[\\s,])${escapeRegExp(f)}(?=[\\s,=[<]|$)`, "m").test(help.output));
  if (models && adapter.detect.models && models.exitCode === 0) {
    const listed = [
      ...new Set(
        (safe(() => adapter.detect.models!.parse(models.output)) ?? []).filter(
          (m) => typeof m === "string" && /^[\w./:@+-]{1,200}$/.test(m),
        ),
      ),
    ];
    if (listed.length) Object.assign(d, { models: listed, modelSource: "catalog" as const });
  }
  d.auth = auth;
  if (adapter.detect.minVersion && d.version && compareVersions(d.version, adapter.detect.minVersion) < 0) {
    d.status = "outdated";
    d.problems.push({
      code: "AGENT_NOT_FOUND",
      message: `${adapter.name} ${d.version} is older than ${adapter.detect.minVersion}`,
      hint: `Upgrade: ${adapter.install}`,
    });
  } else if (auth === "missing") {
    d.status = "logged-out";
    d.problems.push({
      code: "AGENT_AUTH_REQUIRED",
      message: `${adapter.name} is not logged in`,
      hint: adapter.login ? `Log in: ${adapter.login}` : undefined,
    });
  } else d.status = "ready";
  return d;
}

function baseOf(adapter: Adapter, env: Env): Detection {
  const home = env.HOME || homedir();
  const configDir = adapter.detect.configDir ? join(home, adapter.detect.configDir) : undefined;
  return {
    id: adapter.id,
    name: adapter.name,
    status: "missing",
    installed: false,
    confident: false,
    configDir: configDir && existsSync(configDir) ? configDir : undefined,
    auth: "unknown",
    login: adapter.login,
    models: adapter.models,
    modelSource: adapter.models.length ? "aliases" : "none",
    efforts: adapter.efforts,
    problems: [],
  };
}

/** The auth probe alone, for the run pipeline to confirm a cached "missing" before refusing. */
export function probeAuth(adapter: Adapter, path: string, env: Env = process.env): Promise<AuthState> {
  return authState(adapter, env, (args) => probe([path, ...args], { env, timeoutMs: adapter.detect.timeoutMs ?? DEFAULT_PROBE_MS }));
}

async function authState(adapter: Adapter, env: Env, run: (args: string[]) => ReturnType<typeof probe>): Promise<AuthState> {
  const auth = adapter.detect.auth;
  if (!auth) return "unknown";
  if (auth.envKeys.some((k) => env[k])) return "ok";
  if (!auth.args || !auth.classify) return "unknown";
  const r = await run(auth.args);
  if (r.failedToStart || r.timedOut) return "unknown";
  return safe(() => auth.classify!(r.output, r.exitCode)) ?? "unknown";
}

function crashed(adapter: Adapter, err: unknown): Detection {
  return {
    ...baseOf(adapter, {}),
    status: "broken",
    problems: [{ code: "INTERNAL", message: `detecting ${adapter.id} failed: ${(err as Error)?.message ?? err}` }],
  };
}

/** Numeric dotted comparison; pre-release tails are ignored. */
export function compareVersions(a: string, b: string): number {
  const pa = a
    .split(/[^\d.]/)[0]!
    .split(".")
    .map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d) return Math.sign(d);
  }
  return 0;
}

function safe<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
