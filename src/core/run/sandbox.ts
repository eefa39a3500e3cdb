import { homedir } from "node:os";
import { delimiter, isAbsolute } from "node:path";
import { homePath } from "../agents/auth-on-disk.ts";
import type { Adapter } from "../contract/adapter.ts";
import { OdError } from "../contract/errors.ts";
import { type BodyOf, Mode } from "../contract/events.ts";
import type { ValidRequest } from "../contract/request.ts";
import { withoutTrailingSlashes } from "../os/paths.ts";
import { chooseSandbox, type Sandbox, SandboxSetting, type Support } from "../os/sandbox/choose.ts";
import { policyFor } from "../os/sandbox/policy.ts";
import { runSandboxSupport } from "../os/sandbox/support-cache.ts";
import { plannedTmp } from "../os/sandbox/wrap.ts";
import type { Env } from "./request.ts";

/** A run's sandbox as planned: what holds it, its private temp folder, and the CLI's state folders to make. */
export interface SandboxPlan {
  sandbox: Sandbox;
  /** The private temp folder (made at launch) when the kernel holds the run. */
  tmp?: string;
  /** The CLI's state folders, made at launch when missing. */
  stateDirs: string[];
  /**
   * The mode the CLI's own flags are built for, when it is not the run's: `full` for a CLI whose own
   * sandbox cannot start inside od's (capabilities.ownSandbox), or `OD_TEST_CLI_MODE`, the live lane's
   * switch that leaves the CLI's wall off so that the kernel's is shown to hold alone. Only ever set
   * where the kernel holds the run.
   */
  cliMode?: Mode;
}

export interface SandboxPlanInput {
  adapter: Adapter;
  request: ValidRequest;
  env: Env;
  /** The surface's setting; else `$OD_SANDBOX`; else auto. */
  setting?: SandboxSetting;
  /** The machine's support: by default a kept whole answer (`sandbox.json`, while its key holds), else probed. */
  support?: () => Support;
}

/** The sandbox a run gets; throws SANDBOX_UNAVAILABLE under `require` where the kernel cannot hold the run. */
export function planSandbox(input: SandboxPlanInput): SandboxPlan {
  const { adapter, request, env } = input;
  const setting = input.setting ?? settingFromEnv(env);
  const where = adapter.protocol.kind === "loop" ? "in-process" : request.on ? { target: request.on } : "here";
  const local = where === "here" && request.mode !== "full" && setting !== "off";
  const tmp = local ? plannedTmp(crypto.randomUUID()) : undefined;
  const state = stateOf(adapter, env);
  const policy = tmp
    ? policyFor({ mode: request.mode, cwd: request.cwd, state: state.paths, locked: state.locked, tmp, allow: allowOf(env) })
    : undefined;
  const sandbox = chooseSandbox({
    setting,
    mode: request.mode,
    where,
    policy,
    support: input.support ?? (() => runSandboxSupport(env)),
  });
  if (!sandbox.policy) return { sandbox, stateDirs: [], ...cliModeOf(env, false) };
  const test = cliModeOf(env, true);
  if (!adapter.capabilities.ownSandbox) return { sandbox, tmp, stateDirs: state.dirs, ...test };
  // The CLI's own sandbox cannot start inside od's: it stands down, and od's holds the mode.
  const note = `${adapter.name}'s own sandbox cannot start inside od's, so it runs with it off and od's holds the mode`;
  return { sandbox: { ...sandbox, note: sandbox.note ? `${sandbox.note}; ${note}` : note }, tmp, stateDirs: state.dirs, cliMode: "full" };
}

/** `OD_TEST_CLI_MODE`, refused unless the kernel holds the run: it never gives an agent more than its mode. */
function cliModeOf(env: Env, held: boolean): { cliMode?: Mode } {
  const raw = env.OD_TEST_CLI_MODE;
  if (!raw) return {};
  const mode = Mode.safeParse(raw);
  if (!mode.success) throw new OdError("INVALID_REQUEST", `OD_TEST_CLI_MODE must be read-only, edit or full, not "${raw}"`);
  if (!held)
    throw new OdError(
      "SANDBOX_UNAVAILABLE",
      "OD_TEST_CLI_MODE lifts the CLI's own wall, and the kernel does not hold this run",
      "Unset it.",
    );
  return { cliMode: mode.data };
}

/** The sandbox as the run's header (run.started) and --dry-run show it. */
export function sandboxView({ kind, policy, note }: Sandbox): NonNullable<BodyOf<"run.started">["sandbox"]> {
  return { kind, ...(policy ? { writable: policy.writable, readOnly: policy.readOnly } : {}), ...(note ? { note } : {}) };
}

/** `$OD_SANDBOX` (auto, require or off); another value is a usage error, not a silent default. */
export function settingFromEnv(env: Env): SandboxSetting {
  const raw = env.OD_SANDBOX;
  if (!raw) return "auto";
  const parsed = SandboxSetting.safeParse(raw);
  if (!parsed.success) throw new OdError("INVALID_REQUEST", `OD_SANDBOX must be auto, require or off, not "${raw}"`);
  return parsed.data;
}

/** The CLI's state paths for this user, which of them are folders, and what in them is kept read-only (lockedState). */
export function stateOf(adapter: Adapter, env: Env): { paths: string[]; dirs: string[]; locked: string[] } {
  const home = env.HOME || homedir();
  const paths: string[] = [];
  const dirs: string[] = [];
  const locked = adapter.lockedState.flatMap((spec) => homePath(withoutTrailingSlashes(spec), env, home) ?? []);
  for (const spec of adapter.state) {
    const path = homePath(withoutTrailingSlashes(spec), env, home);
    if (!path) continue;
    paths.push(path);
    if (spec.endsWith("/")) dirs.push(path);
  }
  const uid = process.getuid?.();
  for (const spec of uid === undefined ? [] : stateFor(adapter, uid)) {
    const path = withoutTrailingSlashes(spec);
    if (!isAbsolute(path)) continue;
    paths.push(path);
    dirs.push(path);
  }
  return { paths, dirs, locked };
}

/** A plugin's `stateFor`, which may throw: then it names nothing. */
function stateFor(adapter: Adapter, uid: number): string[] {
  try {
    const paths = adapter.stateFor?.(uid) ?? [];
    return Array.isArray(paths) ? paths.filter((p): p is string => typeof p === "string") : [];
  } catch {
    return [];
  }
}

/** `$OD_SANDBOX_ALLOW`: absolute folders, separated as PATH is, the user lets every agent write. */
export function allowOf(env: Env): string[] {
  const list = (env.OD_SANDBOX_ALLOW ?? "").split(delimiter).filter(Boolean);
  const relative = list.find((p) => !isAbsolute(p));
  if (relative) throw new OdError("INVALID_REQUEST", `OD_SANDBOX_ALLOW takes absolute paths, not "${relative}"`);
  return list;
}
