/** Recovery of runs a dead server left live: their marked processes end first, then the runs are failed. */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createRegistry } from "../../src/core/agents/registry.ts";
import { RunLog } from "../../src/core/store/run-log.ts";
import { startServer } from "../../src/server/serve.ts";
import { alive, tmpdir } from "../helpers.ts";
import { killAll } from "./support.ts";

/** A process carrying `entry` in its environment, in its own session, as an agent's escaped child would be. */
const marked = (entry: string) => {
  const [key, ...value] = entry.split("=");
  return Bun.spawn(["sleep", "1000"], {
    env: { PATH: process.env.PATH, [key!]: value.join("=") },
    stdio: ["ignore", "ignore", "ignore"],
    detached: true,
  });
};

/** A run a dead server left live: a log with no run.finished. */
function liveRun(log: RunLog, runId: string) {
  log.create(runId, { agent: "claude", prompt: "hi", cwd: "/" });
  log.append({ type: "status", runId, seq: 0, ts: 1, label: "working" });
}

describe.skipIf(process.platform !== "linux")("recovery after a crash", () => {
  test("od serve ends what a live run left running (exactly its marker), then marks it failed", async () => {
    await using tmp = tmpdir();
    const home = join(tmp.path, ".od");
    liveRun(new RunLog(join(home, "runs")), "live-run");
    const survivor = marked("OD_RUN_ID=live-run");
    const other = marked("OD_RUN_ID=live-run-2"); // another run's: a prefix is not a match
    try {
      const server = startServer({ host: "127.0.0.1", port: 0, maxRuns: 1, registry: createRegistry([]), env: { OD_HOME: home } });
      try {
        expect(server.recovered.runs).toEqual(["live-run"]);
        expect(alive(survivor.pid)).toBe(false);
        expect(alive(other.pid)).toBe(true);
        expect(server.runs.summary("live-run").status).toBe("failed");
        // Its survivors ended before it was said failed: the run's one run.finished is its last event.
        expect(new RunLog(join(home, "runs")).read("live-run").at(-1)).toMatchObject({ type: "run.finished", status: "failed" });
      } finally {
        await server.stop();
      }
    } finally {
      killAll([survivor.pid, other.pid]);
    }
  });
});
