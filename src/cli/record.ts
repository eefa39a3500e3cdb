import { join } from "node:path";
import type { OdEvent } from "../core/contract/events.ts";
import type { RunRequest } from "../core/contract/request.ts";
import { odHome } from "../core/os/paths.ts";
import { recordRun, storedRequest } from "../core/store/record.ts";
import { RunLog } from "../core/store/run-log.ts";
import { log } from "./log.ts";

/** Where `od runs` and `od serve` find past runs: OD_HOME/runs. */
export function runLog(): RunLog {
  return new RunLog(join(odHome(), "runs"));
}

/**
 * A CLI run's events, recorded on their way past in OD_HOME/runs/<runId>/ like the server's runs
 * (`od runs` and GET /api/runs list them). A log that cannot be written warns once; the run goes on.
 */
export function recorded(events: AsyncIterable<OdEvent>, runId: string, request: RunRequest, extra = {}): AsyncGenerator<OdEvent> {
  const stored = storedRequest(request, { origin: "cli", pid: process.pid }, extra);
  return recordRun(events, { log: runLog, runId, request: stored, warn: (message) => log.warn(message) });
}
