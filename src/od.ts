/**
 * The composition root: one od, from its home and environment, for every surface. It loads the
 * registry (built-in adapters and the user's plugins) and the skills, opens the run log under
 * OD_HOME, and builds the run service on them: `od run`, `od serve`, `od mcp`, `od acp` and the
 * library take runs from `od.runs` and render their handles.
 *
 * @example
 *   const od = await createOd();
 *   const run = await od.runs.start({ agent: "claude", prompt: "fix the tests", cwd: "." }, { origin: "library" });
 *   for await (const e of run.events()) console.log(e.type);
 */
import { join } from "node:path";
import { loadRegistry, loadSkills } from "./builtins.ts";
import type { Registry } from "./core/agents/registry.ts";
import type { Env } from "./core/contract/request.ts";
import { odHome } from "./core/os/paths.ts";
import type { SandboxSetting } from "./core/os/sandbox/choose.ts";
import { Slots } from "./core/os/slots.ts";
import { Runs, type RunsDeps } from "./core/runs/service.ts";
import { RunLog } from "./core/store/run-log.ts";

export interface OdOptions {
  /** Default: `$OD_HOME`, else ~/.open-design. */
  home?: string;
  env?: Env;
  /** Default: the built-ins and the user's plugins. */
  registry?: Registry;
  /** Runs at once; more wait for a slot and say so (default 4). */
  maxRuns?: number;
  /** Slots shared with others (a server's, which its targets' slots chain to), instead of `maxRuns` of its own. */
  slots?: Slots;
  /** A run log that cannot be written: `required` refuses runs (a server), `best-effort` warns once and runs on (a terminal). */
  recording?: RunsDeps["recording"];
  sandbox?: SandboxSetting;
  warn?: (message: string) => void;
  askTimeoutMs?: number;
}

export interface Od {
  home: string;
  env: Env;
  registry: Registry;
  log: RunLog;
  runs: Runs;
}

export async function createOd(opts: OdOptions = {}): Promise<Od> {
  return odWith(opts.registry ?? (await loadRegistry()), opts);
}

/** The same, on a registry already loaded (a server has one before it builds its od). */
export function odWith(registry: Registry, opts: Omit<OdOptions, "registry"> = {}): Od {
  const env = opts.env ?? process.env;
  const home = opts.home ?? odHome(env);
  const log = new RunLog(join(home, "runs"));
  const runs = new Runs({
    registry,
    log,
    env,
    slots: opts.slots ?? new Slots(opts.maxRuns ?? 4),
    skills: () => loadSkills([], env),
    recording: opts.recording ?? "required",
    sandbox: opts.sandbox,
    warn: opts.warn,
    askTimeoutMs: opts.askTimeoutMs,
  });
  return { home, env, registry, log, runs };
}
