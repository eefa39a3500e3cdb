import { join } from "node:path";
import { odHome } from "../core/os/paths.ts";
import { RunLog } from "../core/store/run-log.ts";

/** Where `od runs` and `od serve` find past runs: OD_HOME/runs. */
export function runLog(): RunLog {
  return new RunLog(join(odHome(), "runs"));
}
