import { resolve } from "node:path";
import { OdError } from "../contract/errors.ts";
import type { OdEvent } from "../contract/events.ts";
import { noteEvent } from "../store/summary.ts";
import { type LiveRun, wake } from "./live.ts";
import { Refusal, type RunsCore as Runs, type StartOptions } from "./types.ts";

/** What the one who started the run is told: it is recorded (queued or started), or it was refused. */
export interface Outcome {
  recorded: () => void;
  refused: (err: OdError) => void;
}

/**
 * Drives a run to its end whether or not anyone follows it. Until the run is queued or started its
 * events wait: a run.finished before that is a refusal (an unknown agent, a CLI not installed), told
 * to the caller as an error and never recorded (but for a compare run's member, recorded at once). From then on every event goes to the log (the one
 * copy readers read), the summary, and each follower, and the run waits for a follower that fell
 * behind. A log that fails ends the run (an error, then its one run.finished, from the pipeline).
 */
export async function drive(
  runs: Runs,
  run: LiveRun,
  events: AsyncIterable<OdEvent[]>,
  opts: Pick<StartOptions, "origin" | "groupId">,
  outcome: Outcome,
) {
  const waiting: OdEvent[] = [];
  let recorded = false;
  try {
    for await (const batch of events) {
      if (recorded) {
        await pass(run, batch);
        continue;
      }
      for (const [i, event] of batch.entries()) {
        waiting.push(event);
        if (event.type === "run.finished") return outcome.refused(refusal(waiting));
        if (event.type !== "run.started" && !(event.type === "status" && event.label === "queued")) continue;
        if (!record(runs, run, opts, outcome)) continue;
        recorded = true;
        await pass(run, [...waiting.splice(0), ...batch.slice(i + 1)]);
        break;
      }
    }
  } catch (err) {
    if (!recorded) outcome.refused(OdError.from(err));
    else runs.deps.warn?.(`run ${run.runId}: ${(err as Error)?.message ?? err}`);
  } finally {
    run.finished = true;
    for (const f of run.followers) f.end();
    if (run.summary.status === "running" || run.summary.status === "queued") run.summary.status = "failed";
    try {
      run.log?.close();
    } finally {
      if (run.log) runs.reading.ended(run);
    }
  }
}

/** The run's record: request.json, and the log its events go to. False (the run is cancelled) when storage fails. */
function record(runs: Runs, run: LiveRun, opts: Pick<StartOptions, "origin" | "groupId">, outcome: Outcome): boolean {
  const extra = opts.groupId ? { groupId: opts.groupId } : {};
  try {
    run.log = runs.deps.log.open(run.runId, storedRequest(run.request, { origin: opts.origin, pid: process.pid }, extra), (err) =>
      storageFailed(runs, run, err),
    );
  } catch (err) {
    const e = OdError.from(runs.storage.note(err));
    if (runs.deps.recording === "best-effort") warnUnrecorded(runs, e);
    else {
      run.controller.abort(e);
      outcome.refused(e);
      return false;
    }
  }
  outcome.recorded();
  return true;
}

/** Best-effort recording: the run goes on, and the terminal is told once that it is not kept. */
function warnUnrecorded(runs: Runs, e: OdError): void {
  runs.deps.warn?.(`this run is not kept in od's history: ${e.message}${e.hint ? ` (${e.hint})` : ""}`);
}

/**
 * Events on their way, each serialized once: the log, the summary, the followers, then the readers;
 * then the run waits for a follower that fell behind (once per batch: a chunk of the agent's output).
 */
async function pass(run: LiveRun, events: OdEvent[]): Promise<void> {
  for (const event of events) {
    if (run.finished) return;
    noteEvent(run.summary, event, run.seq < 0);
    run.seq = event.seq;
    const json = JSON.stringify(event);
    run.log?.append(event, json);
    if (run.followers.size) for (const f of run.followers) f.push({ event, json });
    wake(run);
  }
  for (const f of run.followers) {
    const room = f.room();
    if (room) await room;
  }
}

/**
 * The run's log could not be written (a full disk): the run is stopped with that error (the pipeline
 * ends it: the STORAGE error, then its one run.finished), kept in memory for its readers, and no new
 * run starts until storage works again.
 */
function storageFailed(runs: Runs, run: LiveRun, err: OdError): void {
  if (runs.deps.recording === "best-effort") return warnUnrecorded(runs, err);
  runs.storage.note(err);
  runs.deps.warn?.(`run ${run.runId}: ${err.message}`);
  run.controller.abort(err);
}

/** The error a refused run ended with (the first it reported; a cancel before it started, else), with its events. */
function refusal(events: OdEvent[]): Refusal {
  const error = events.find((e) => e.type === "error");
  const err =
    error?.type === "error"
      ? new OdError(error.code, error.message, error.hint)
      : new OdError("CANCELLED", "The run was cancelled before it started");
  return new Refusal(err, events);
}

/**
 * What a run's request.json keeps: the request as asked (prompt, agent, model, mode, skills…; of
 * its MCP servers only their names and transports, since their commands, URLs, variables and
 * headers often carry credentials), its working directory made absolute, who started it and that
 * od's pid (recovery leaves a run whose od is alive to it), and for a compare run's member its `groupId`.
 */
export function storedRequest<R extends { cwd?: string; mcpServers?: unknown }>(
  request: R,
  origin: { origin: string; pid: number },
  extra = {},
) {
  const { mcpServers, ...asked } = request;
  const servers = Array.isArray(mcpServers) && mcpServers.length ? { mcpServers: keptOf(mcpServers) } : {};
  return { ...asked, ...servers, cwd: resolve(request.cwd ?? process.cwd()), ...origin, ...extra };
}

/** A server's name and transport, whatever else it said (the request is stored as asked, before validation). */
function keptOf(servers: unknown[]): Array<{ name: unknown; type: unknown }> {
  return servers.map((s) => {
    const r = (typeof s === "object" && s !== null ? s : {}) as Record<string, unknown>;
    return { name: r.name, type: r.type ?? "stdio" };
  });
}
