import type { Registry } from "../agents/registry.ts";
import { OdError } from "../contract/errors.ts";
import type { OdEvent } from "../contract/events.ts";
import type { RunRequest } from "../contract/request.ts";
import type { SandboxSetting } from "../os/sandbox/choose.ts";
import type { Slots } from "../os/slots.ts";
import type { CreateRunOptions } from "../run/pipeline.ts";
import type { SkillCatalog } from "../skills/catalog.ts";
import type { LogBatch, LogCursor } from "../store/log-read.ts";
import type { RunLog } from "../store/run-log.ts";
import type { RunSummary } from "../store/summary.ts";
import type { LiveRun, Passed } from "./live.ts";
import type { StorageGate } from "./storage.ts";

/**
 * The run service's shapes, apart from the service itself (service.ts), so that the parts it is
 * made of (drive, handle, reading, groups, recover) and the service import these, not each other.
 */

/** Who started a run: kept in its record (request.json), and what recovery and lists go by. */
export type Origin = "cli" | "serve" | "mcp" | "acp" | "library";

export interface RunsDeps {
  registry: Registry;
  log: RunLog;
  /** Slots every run shares unless it brings its own (a target's). */
  slots: Slots;
  env?: Record<string, string | undefined>;
  skills?: () => Promise<SkillCatalog>;
  /** How long a permission question waits for an answer (`decide`) before it is denied. */
  askTimeoutMs?: number;
  sandbox?: SandboxSetting;
  /**
   * A run log that cannot be written: `required` (a server) refuses new runs and ends the one whose
   * log failed; `best-effort` (a terminal) warns once and runs on unrecorded.
   */
  recording?: "required" | "best-effort";
  /** Where a failure no caller can be told of is reported (a run's log that could not be written). */
  warn?: (message: string) => void;
}

export interface StartOptions extends Pick<CreateRunOptions, "broker" | "retry" | "changes" | "resolveCwd" | "ladder"> {
  origin: Origin;
  /** Permission requests wait for `decide` (a timeout denies) instead of the mode's policy or `broker`. */
  ask?: boolean;
  /** A target's slots instead of the service's. */
  slots?: Slots;
  /** Ends the run as a cancel does (a client going away, Ctrl-C). */
  signal?: AbortSignal;
  /** The compare run it belongs to, and a run id chosen before it starts (a compare member's). */
  groupId?: string;
  runId?: string;
}

/** What a surface holds of a run: it renders the events, and may cancel it or answer its questions. */
export interface RunHandle {
  runId: string;
  /** `queued` until the agent starts, then `running`, then how it ended. */
  readonly status: RunSummary["status"];
  /**
   * The run's events in order, as objects: from the start (or after seq `after`), then live until
   * its run.finished. The run waits for a consumer that falls behind; breaking out lets it go on.
   */
  events(after?: number): AsyncGenerator<OdEvent>;
  /**
   * `events`, in the arrays they passed in (a chunk of the agent's output together, or all that
   * passed since the consumer last asked), each with its JSON as the run log has it.
   */
  passed(after?: number): AsyncGenerator<Passed[]>;
  cancel(): void;
  /** Answers a permission request the run relays (`ask`); false when none waits under that id. */
  decide(askId: string, decision: "allow" | "deny"): boolean;
  /** Resolves with the run's summary once it has ended. */
  done: Promise<RunSummary>;
}

/** How the service answers readers: a run's events from its log, its summary, whoever runs it. */
export interface Reading {
  read(runId: string, cursor: LogCursor, maxBytes: number): LogBatch & { live: boolean };
  summary(runId: string): RunSummary;
  /** A live run has ended: its summary is final, and a log that failed keeps its last events here. */
  ended(run: LiveRun): void;
}

/** What the service's parts need of it. */
export interface RunsCore {
  readonly deps: RunsDeps;
  readonly live: Map<string, LiveRun>;
  readonly storage: StorageGate;
  readonly reading: Reading;
  read(runId: string, cursor: LogCursor, maxBytes: number): LogBatch & { live: boolean };
  summary(runId: string): RunSummary;
  decide(runId: string, askId: string, decision: "allow" | "deny"): boolean;
  adopt(
    runId: string,
    request: RunRequest,
    controller: AbortController,
    events: AsyncIterable<OdEvent[]>,
    opts: Pick<StartOptions, "origin" | "groupId"> & { recordAtOnce?: boolean },
  ): Promise<RunHandle>;
}

export function notFound(runId: string): OdError {
  return new OdError("RUN_NOT_FOUND", `No run with id ${runId}`, "`od runs` (GET /api/runs) lists them.");
}

/**
 * A run refused before it started (an unknown agent, a CLI not installed): the error, and the events
 * its pipeline yielded for it (its error, its run.finished), for a terminal that shows them as it
 * shows a run's, `--json` included. It is no run of the history.
 */
export class Refusal extends OdError {
  constructor(
    err: OdError,
    readonly events: OdEvent[],
  ) {
    super(err.code, err.message, err.hint);
  }
}
