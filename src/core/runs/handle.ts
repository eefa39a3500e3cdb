import { OdEvent } from "../contract/events.ts";
import { Follower, type LiveRun } from "./live.ts";
import type { RunHandle, RunsCore as Runs } from "./types.ts";

export function runHandle(runs: Runs, run: LiveRun): RunHandle {
  return {
    runId: run.runId,
    get status() {
      return run.summary.status; // kept as events pass, final once the run has ended
    },
    events: (after = -1) => follow(runs, run, after),
    cancel: () => run.controller.abort(),
    decide: (askId, decision) => runs.decide(run.runId, askId, decision),
    done: run.done.then(() => ({ ...run.summary })),
  };
}

/** What already passed comes from the log (read at once, in this turn), the rest as it passes: no gap, no repeat. */
async function* follow(runs: Runs, run: LiveRun, after: number): AsyncGenerator<OdEvent> {
  const follower = new Follower<OdEvent>();
  if (run.seq > after) {
    let cursor = { seq: after };
    for (let batch = runs.read(run.runId, cursor, 1 << 20); batch.events.length; batch = runs.read(run.runId, cursor, 1 << 20)) {
      for (const e of batch.events) follower.push(OdEvent.parse(JSON.parse(e.json)));
      cursor = batch.cursor;
    }
  }
  if (run.finished) follower.end();
  else run.followers.add(follower);
  try {
    for (let e = await follower.next(); e; e = await follower.next()) yield e;
  } finally {
    run.followers.delete(follower);
    follower.close();
  }
}
