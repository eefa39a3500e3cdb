import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Adapter, AuthState } from "../contract/adapter.ts";
import { OdError } from "../contract/errors.ts";
import type { Env } from "../contract/request.ts";
import { type ProbeOptions, type ProbeResult, probe } from "../os/probe.ts";
import { type Resolved, resolveExecutable, toolPath } from "../os/resolve.ts";
import type { Slots } from "../os/slots.ts";
import { authOnDisk } from "./auth-on-disk.ts";
import { flagsFromHelp, flagsFromVersion, versionTellsFlags } from "./caps.ts";
import { detectLoop } from "./detect-loop.ts";
import { type Detection, PROBE_SLOW, type Problem } from "./detection.ts";
import { compareVersions, type DiskVersion, nodeVersionOnDisk, type OldNode, versionOnDisk } from "./version-on-disk.ts";

/** A probe's time limit, from its start: generous, since a slow answer on a busy machine is still an answer. */
export const DEFAULT_PROBE_MS = 15_000;

export type { Detection, Problem } from "./detection.ts";
export { compareVersions } from "./version-on-disk.ts";

/**
 * One detection pass: probes go through `slots` (one per core unless given) and
 * an identical command (gemini and gemini-acp both run `gemini --version`) runs once.
 */
export interface DetectContext {
  run(cmd: string[], timeoutMs: number): Promise<ProbeResult>;
  /** The adapter's executable (throws AGENT_NOT_FOUND when there is none). */
  resolve(adapter: Adapter): Resolved;
}

/** What starts a probe: `probe` (queued for a core), or a stand-in that counts or fakes them (tests, the benchmark). */
export type Prober = (cmd: string[], opts: ProbeOptions) => Promise<ProbeResult>;

export interface DetectOptions {
  slots?: Slots;
  probe?: Prober;
  /** The executables as the caller already resolved them (the cache, for its keys): each is looked up once. */
  resolve?: (adapter: Adapter) => Resolved;
}

export function detectContext(env: Env, opts: DetectOptions = {}): DetectContext {
  const runs = new Map<string, Promise<ProbeResult>>();
  const start = opts.probe ?? probe;
  let tools: string | undefined; // the user tool folders, found once for every adapter
  return {
    run(cmd, timeoutMs) {
      const key = JSON.stringify(cmd);
      if (!runs.has(key)) runs.set(key, start(cmd, { env, timeoutMs, slots: opts.slots }));
      return runs.get(key)!;
    },
    resolve: opts.resolve ?? ((adapter) => resolveExecutable(adapter, env, (tools ??= toolPath(env)))),
  };
}

/**
 * Detects every adapter at once. A version the install tells on disk costs no
 * process; the rest queue for a core, so no probe's clock runs while it waits.
 * One failing adapter never hurts the others.
 */
export function detectAll(adapters: Adapter[], env: Env = process.env, opts: DetectOptions = {}): Promise<Detection[]> {
  const ctx = detectContext(env, opts);
  return Promise.all(adapters.map((a) => detectOne(a, env, ctx).catch((err) => crashed(a, err))));
}

export async function detectOne(adapter: Adapter, env: Env = process.env, ctx = detectContext(env)): Promise<Detection> {
  if (adapter.protocol.kind === "loop") return detectLoop(adapter, env); // no executable: configured or not
  const base = baseOf(adapter, env);
  let path: string;
  let via: Detection["via"];
  try {
    ({ path, via } = ctx.resolve(adapter));
  } catch (err) {
    const e = OdError.from(err);
    return { ...base, status: "missing", problems: [{ code: e.code, message: e.message, hint: e.hint }] };
  }
  const timeoutMs = adapter.detect.timeoutMs ?? DEFAULT_PROBE_MS;
  const run = (args: string[]) => ctx.run([path, ...args], timeoutMs);
  const home = env.HOME || homedir();
  const nodeVersion = async (node: string) => {
    const onDisk = nodeVersionOnDisk(node);
    if (onDisk) return onDisk;
    const r = await ctx.run([node, "--version"], timeoutMs);
    return r.exitCode === 0 ? r.output.split("\n")[0] : undefined;
  };
  let oldNode: OldNode | undefined;
  const disk = await versionOnDisk(adapter, path, { env, home, nodeVersion, oldNode: (found) => (oldNode = found) });
  // No model catalog here: it costs seconds (catalog.ts fetches one when models are asked for or named).
  // `--help` only where the version cannot tell the flags: a flag without a `since`, or no version on disk.
  const helpNow = adapter.detect.help && !versionTellsFlags(adapter);
  const [version, help, auth] = await Promise.all([
    disk ? undefined : run(adapter.version.args),
    helpNow ? run(adapter.detect.help!.args) : undefined,
    authState(adapter, env, run),
  ]);
  const d: Detection = { ...base, path, via };
  const failed = versionFailure(adapter, path, version, oldNode);
  if (failed) return { ...d, ...failed };
  Object.assign(d, versionOf(adapter, path, timeoutMs, disk, version));
  d.installed = true;
  d.confident = !adapter.detect.configDir || d.configDir !== undefined;
  await scanFlags(adapter, d, help ?? (helpNow ? undefined : flagsFromVersion(adapter, d.version)), run, timeoutMs);
  d.auth = auth;
  settle(adapter, d);
  return d;
}

/** The flags from `--help` (run now if the version could not tell them), or as the version told them. */
async function scanFlags(
  adapter: Adapter,
  d: Detection,
  known: ProbeResult | string[] | undefined,
  run: (args: string[]) => Promise<ProbeResult>,
  timeoutMs: number,
): Promise<void> {
  const help = adapter.detect.help;
  if (!help) return;
  if (Array.isArray(known)) {
    d.flags = known;
    return;
  }
  const r = known ?? (await run(help.args));
  if (r.timedOut) d.problems.push(slow(d.path!, help.args, timeoutMs, "its optional flags are unknown"));
  else d.flags = flagsFromHelp(adapter, r.output);
}

/**
 * The version probe's verdict when the CLI cannot be used: not startable is missing, a failing one broken
 * (a Node older than its package asks for is named: reinstalling would not help). A slow one is neither.
 */
function versionFailure(adapter: Adapter, path: string, r: ProbeResult | undefined, oldNode?: OldNode): Partial<Detection> | undefined {
  if (!r || r.timedOut || r.exitCode === 0) return undefined;
  const command = `\`${[path, ...adapter.version.args].join(" ")}\``;
  const hint = oldNode
    ? `${oldNode.pkg} ${oldNode.version} asks for Node ${oldNode.engines} (its engines) and runs on ${oldNode.node} here (${oldNode.program}): install a newer Node, or point PATH at one.`
    : `Reinstall with \`${adapter.install}\`.`;
  if (r.failedToStart || r.exitCode === 126 || r.exitCode === 127)
    return {
      status: "missing",
      problems: [{ code: "AGENT_NOT_FOUND", message: `${command} cannot be started`, hint }],
    };
  const said = r.output.split("\n").at(-1)?.slice(0, 200);
  return {
    status: "broken",
    problems: [
      {
        code: "AGENT_CRASHED",
        message: `${command} exited with ${r.exitCode}${said ? `: ${said}` : ""}`,
        hint,
      },
    ],
  };
}

function versionOf(adapter: Adapter, path: string, timeoutMs: number, disk: DiskVersion | undefined, r: ProbeResult | undefined) {
  if (disk) return { version: disk.version, versionFrom: disk.from };
  if (!r || r.timedOut) return { problems: [slow(path, adapter.version.args, timeoutMs, "it is there, its version unverified")] };
  const version =
    safe(() => adapter.version.parse?.(r.output)) ?? r.output.match(/\d+\.\d+(\.\d+)?[\w.+-]*/)?.[0] ?? r.output.split("\n")[0];
  return { version, versionFrom: "probe" as const };
}

function slow(path: string, args: string[], timeoutMs: number, meaning: string): Problem {
  return {
    code: PROBE_SLOW,
    message: `\`${[path, ...args].join(" ")}\` did not answer within ${timeoutMs} ms (a busy machine?): ${meaning}`,
    hint: "Run `od agents --refresh` when the machine is quieter.",
  };
}

/** The status from what is known: below minVersion is outdated, a missing login logged-out, else ready. */
function settle(adapter: Adapter, d: Detection): void {
  if (adapter.detect.minVersion && d.version && compareVersions(d.version, adapter.detect.minVersion) < 0) {
    d.status = "outdated";
    d.problems.push({
      code: "AGENT_NOT_FOUND",
      message: `${adapter.name} ${d.version} is older than ${adapter.detect.minVersion}`,
      hint: `Upgrade: ${adapter.install}`,
    });
  } else if (d.auth === "missing") {
    d.status = "logged-out";
    d.problems.push({
      code: "AGENT_AUTH_REQUIRED",
      message: `${adapter.name} is not logged in`,
      hint: adapter.login ? `Log in: ${adapter.login}` : undefined,
    });
  } else d.status = "ready";
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

/** From the environment, then the CLI's credential files, then (only when they cannot tell) its auth probe. */
async function authState(adapter: Adapter, env: Env, run: (args: string[]) => Promise<ProbeResult>): Promise<AuthState> {
  const auth = adapter.detect.auth;
  if (!auth) return "unknown";
  const onDisk = authOnDisk(adapter, env, env.HOME || homedir());
  if (onDisk) return onDisk;
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

function safe<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}
