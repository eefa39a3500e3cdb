import type { OdEvent } from "../contract/events.ts";
import { Follower, type LiveRun, type Passed } from "./live.ts";
import type { RunHandle, RunsCore as Runs } from "./types.ts";

export function runHandle(runs: Runs, run: LiveRun): RunHandle {
  return {
    runId: run.runId,
    get status() {
      return run.summary.status; // kept as events pass, final once the run has ended
    },
    events: (after = -1) => events(runs, run, after),
    passed: (after = -1) => follow(runs, run, after),
    cancel: () => run.controller.abort(),
    decide: (askId, decision) => runs.decide(run.runId, askId, decision),
    done: run.done.then(() => ({ ...run.summary })),
  };
}

async function* events(runs: Runs, run: LiveRun, after: number): AsyncGenerator<OdEvent> {
  for await (const passed of follow(runs, run, after)) for (const p of passed) yield p.event;
}

/**
 * What already passed comes from the log (read at once, in this turn), the rest as it passes: no gap,
 * no repeat. Each step gives what passed since the last one (a chunk of the agent's output, or more
 * when the consumer was slower), with the JSON the log has.
 */
async function* follow(runs: Runs, run: LiveRun, after: number): AsyncGenerator<Passed[]> {
  const follower = new Follower<Passed>();
  if (run.seq > after) {
    let cursor = { seq: after };
    for (let batch = runs.read(run.runId, cursor, 1 << 20); batch.events.length; batch = runs.read(run.runId, cursor, 1 << 20)) {
      // This run's own log, written by this process's pipeline: trusted as the same events passing live
      // are (validating them built the whole event schema for a run's first follower, ~15 ms of CPU).
      for (const e of batch.events) follower.push({ event: JSON.parse(e.json) as OdEvent, json: e.json });
      cursor = batch.cursor;
    }
  }
  if (run.finished) follower.end();
  else run.followers.add(follower);
  try {
    for (let passed = await follower.batch(); passed; passed = await follower.batch()) yield passed;
  } finally {
    run.followers.delete(follower);
    follower.close();
  }
}
