import { z } from "zod";
import type { Registry } from "../agents/registry.ts";
import { Mode } from "../events.ts";
import type { Ladder } from "../os/process-group.ts";
import type { SandboxSetting } from "../os/sandbox/choose.ts";
import type { SkillCatalog } from "../skills/catalog.ts";
import type { Broker } from "./permissions.ts";
import type { Slots } from "./slots.ts";

/**
 * A value od hands a CLI as a flag's argument (a model, a session id, a role, a tool). One that
 * starts with "-" is refused: many CLIs' parsers read it as a flag of its own (`--model --yolo`),
 * which would give the agent more authority than the mode asked for.
 */
const FlagValue = z
  .string()
  .min(1)
  .refine((v) => !v.startsWith("-"), "must not start with '-' (a CLI would read it as a flag of its own)");

/** What a caller asks for: the same object from `od run`, `POST /api/runs`, parallel runs and the library. */
export const RunRequest = z.object({
  agent: z.string().min(1),
  prompt: z.string().refine((p) => p.trim().length > 0, "the prompt is empty"),
  cwd: z.string().min(1).optional(),
  mode: Mode.default("edit"),
  model: FlagValue.optional(),
  effort: FlagValue.optional(),
  resume: FlagValue.optional(),
  timeoutMs: z.number().int().positive().optional(),
  /** Skills by name (`od skills` lists them). */
  skills: z.array(z.string().min(1)).default([]),
  /** Tools the agent may use without asking (passed to CLIs that take such a list). */
  allowedTools: z.array(FlagValue).default([]),
  /** A cap on the agent's turns (passed to CLIs that take one). */
  maxTurns: z.number().int().positive().optional(),
  /** A role defined with `od init` for this agent. */
  role: FlagValue.optional(),
  /** Image files to send with the prompt, for agents that accept images natively. */
  images: z.array(z.string().min(1)).default([]),
  /** Where the agent runs: this machine (unset), or `ssh://…`, `docker://…`, `podman://…`, `kubectl://…` (core/remote). */
  on: z.string().min(1).optional(),
});
export type RunRequest = z.input<typeof RunRequest>;
/** A request after validation: defaults filled, `cwd` absolute, `model: "default"` dropped. */
export type ValidRequest = z.output<typeof RunRequest> & { cwd: string };

export type Env = Record<string, string | undefined>;

/** What a run needs from its surface besides the request. */
export interface RunOptions {
  /** The adapters to choose from (surfaces load it with `loadRegistry()` from `src/builtins.ts`). */
  registry: Registry;
  signal?: AbortSignal;
  env?: Env;
  runId?: string;
  ladder?: Ladder;
  /** After a protocol abort or a final error, how long the agent gets to end on its own before signals. */
  abortGraceMs?: number;
  /** After a driver reports the turn done, how long the agent gets to exit on its own. */
  doneGraceMs?: number;
  /** The OS whose command-line limits apply (default: this one); tests apply Windows limits on Linux with it. */
  platform?: NodeJS.Platform;
  /** Bounded concurrency: the run waits (and says so) until a slot is free. */
  slots?: Slots;
  /** Someone to ask about the agent's permission requests; without one the mode's policy decides. */
  broker?: Broker;
  /** How long a broker may take before the request is denied. */
  brokerTimeoutMs?: number;
  /** Overrides the driver's stage watchdog (no output for this long ends the run). */
  idleTimeoutMs?: number;
  /** Whether the kernel holds the mode: `auto` (default: `$OD_SANDBOX`, else auto), `require`, `off`. The surface's setting, never the request's. */
  sandbox?: SandboxSetting;
  /**
   * The working directory the agent gets, decided again once the run holds its slot, just before
   * launch: given the planned cwd, returns the one to use (`od mcp` resolves it to its real path and
   * refuses one that left its roots while the run waited); an OdError it throws ends the run, failed.
   */
  resolveCwd?: (cwd: string) => string;
  /** The skills to choose from, or how to load them when the request names any (default: the user's skill folders). */
  skills?: SkillCatalog | (() => Promise<SkillCatalog>);
}
