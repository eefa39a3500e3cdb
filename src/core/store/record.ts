import { resolve } from "node:path";
import type { OdError } from "../contract/errors.ts";
import type { OdEvent } from "../contract/events.ts";
import type { LogWriter } from "./log-writer.ts";
import type { RunLog } from "./run-log.ts";

/**
 * What a run's request.json keeps: the request as asked (prompt, agent, model, mode, skills…; a
 * request carries no environment, so no credential), its working directory made absolute, and for
 * a run some other process drives, where it comes from and that process's id (a server starting
 * meanwhile leaves a run whose od is alive to it). `extra` adds fields such as a compare run's `groupId`.
 */
export function storedRequest<R extends { cwd?: string }>(request: R, origin?: { origin: string; pid: number }, extra = {}) {
  return { ...request, cwd: resolve(request.cwd ?? process.cwd()), ...origin, ...extra };
}

export interface RecordOptions {
  /** The run log, or how to open it: a log that cannot be opened records nothing, and says so once. */
  log: RunLog | (() => RunLog);
  runId: string;
  /** The request as it goes to request.json (see `storedRequest`). */
  request: unknown;
  /** Told once, when the run cannot be recorded (a full disk, a read-only OD_HOME); the run goes on. */
  warn: (message: string) => void;
}

/**
 * Records a run in the durable run log as its events pass through, unchanged: `od run` and each
 * member of a compare run, the way `od serve` records its own (RunLog.open: request.json, then
 * events.jsonl through the batched LogWriter). Recording is a convenience here, never the run's
 * business: a log that cannot be written is warned about once and the events flow on.
 */
export async function* recordRun(events: AsyncIterable<OdEvent>, opts: RecordOptions): AsyncGenerator<OdEvent> {
  let warned = false;
  const warn = (err: unknown) => {
    if (warned) return;
    warned = true;
    const e = err as OdError;
    opts.warn(`this run is not kept in od's history: ${e?.message ?? err}${e?.hint ? ` (${e.hint})` : ""}`);
  };
  let writer: LogWriter | undefined;
  try {
    const log = typeof opts.log === "function" ? opts.log() : opts.log;
    writer = log.open(opts.runId, opts.request, warn);
  } catch (err) {
    warn(err);
  }
  try {
    for await (const event of events) {
      writer?.append(event);
      yield event;
    }
  } finally {
    try {
      writer?.close();
    } catch (err) {
      warn(err);
    }
  }
}
