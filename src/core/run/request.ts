import type { Registry } from "../agents/registry.ts";
import type { Env } from "../contract/request.ts";
import type { Ladder } from "../os/process-group.ts";
import type { SandboxSetting, Support } from "../os/sandbox/choose.ts";
import type { Slots } from "../os/slots.ts";
import type { SkillCatalog } from "../skills/catalog.ts";
import type { Broker } from "./permissions.ts";

export type { Env };

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
  /** For a plan only shown (a dry run): the machine's sandbox support as last probed (os/sandbox/support-cache.ts); a run probes. */
  sandboxSupport?: () => Support;
  /**
   * The working directory the agent gets, decided again once the run holds its slot, just before
   * launch: given the planned cwd, returns the one to use (`od mcp` resolves it to its real path and
   * refuses one that left its roots while the run waited); an OdError it throws ends the run, failed.
   */
  resolveCwd?: (cwd: string) => string;
  /** Called just before the agent is spawned: the pipeline takes its picture of the folder there, which the agent cannot race. */
  onLaunch?: () => void;
  /** The skills to choose from, or how to load them when the request names any (default: the user's skill folders). */
  skills?: SkillCatalog | (() => Promise<SkillCatalog>);
}
