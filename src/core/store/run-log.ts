import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { OdError } from "../errors.ts";
import { createStamper, OdEvent } from "../events.ts";
import { MIN_FREE_BYTES, probeStorage, type StoreIo, storageError } from "./fault.ts";
import { type LogBatch, type LogCursor, logEnds, readLogFile } from "./log-read.ts";
import { LogWriter } from "./log-writer.ts";

export interface RunSummary {
  runId: string;
  agent?: string;
  prompt?: string;
  cwd?: string;
  status: "running" | "succeeded" | "failed" | "cancelled";
  startedAt: number;
  sessionId?: string;
}

/**
 * The durable per-run event log: `<dir>/<runId>/events.jsonl`, one event per
 * line, appended as it happens, plus the request that started the run. A
 * server restart replays whole runs from here. A failure to write it is a
 * STORAGE error (a full disk, a read-only home), never a bug.
 */
export class RunLog {
  constructor(
    readonly dir: string,
    private readonly io: StoreIo = {},
  ) {
    try {
      mkdirSync(dir, { recursive: true });
    } catch (err) {
      throw storageError(err, dir);
    }
  }

  private path(runId: string, file: string): string {
    if (!/^[\w-]+$/.test(runId)) throw new Error(`bad run id: ${runId}`);
    return join(this.dir, runId, file);
  }

  create(runId: string, request: unknown): void {
    try {
      mkdirSync(join(this.dir, runId), { recursive: true });
      writeFileSync(this.path(runId, "request.json"), JSON.stringify(request));
    } catch (err) {
      throw storageError(err, `run ${runId}`);
    }
  }

  /** Throws STORAGE unless a small write under the log's directory succeeds and its disk has some room (storage works again after a failure). */
  probe(): void {
    probeStorage(this.dir, { io: this.io, minFree: MIN_FREE_BYTES });
  }

  append(event: OdEvent): void {
    appendFileSync(this.path(event.runId, "events.jsonl"), `${JSON.stringify(event)}\n`);
  }

  /** A live run's log, written in batches and readable while it grows; `onFail` is told if a write fails. */
  writer(runId: string, onFail?: (err: OdError) => void): LogWriter {
    return new LogWriter(this.path(runId, "events.jsonl"), { write: this.io.write, onFail });
  }

  /** A run's logged events after `cursor`, about `maxBytes` of them, read from the file (a run no writer holds). */
  readAfter(runId: string, cursor: LogCursor, maxBytes: number): LogBatch {
    return readLogFile(this.path(runId, "events.jsonl"), cursor, cursor.offset ?? 0, maxBytes);
  }

  has(runId: string): boolean {
    return /^[\w-]+$/.test(runId) && existsSync(join(this.dir, runId));
  }

  /** Every valid event of a run, in order; a torn last line (a crash mid-write) is skipped. */
  read(runId: string): OdEvent[] {
    let text: string;
    try {
      text = readFileSync(this.path(runId, "events.jsonl"), "utf8");
    } catch {
      return [];
    }
    const events: OdEvent[] = [];
    for (const line of text.split("\n")) {
      if (!line) continue;
      try {
        events.push(OdEvent.parse(JSON.parse(line)));
      } catch {}
    }
    return events;
  }

  request(runId: string): Record<string, unknown> | undefined {
    try {
      return JSON.parse(readFileSync(this.path(runId, "request.json"), "utf8"));
    } catch {
      return undefined;
    }
  }

  summary(runId: string): RunSummary {
    const request = this.request(runId) ?? {};
    const fields = {
      runId,
      agent: request.agent as string | undefined,
      prompt: request.prompt as string | undefined,
      cwd: request.cwd as string | undefined,
    };
    // A finished run is summed up by its first event and its run.finished, which carries the session.
    const { first, finished } = this.ends(runId);
    if (first && finished) return { ...fields, status: finished.status, startedAt: first.ts, sessionId: finished.sessionId };
    const events = this.read(runId);
    const end = events.findLast((e) => e.type === "run.finished");
    const session = events.findLast((e) => e.type === "session");
    return {
      ...fields,
      status: end?.type === "run.finished" ? end.status : "running",
      startedAt: events[0]?.ts ?? statSync(join(this.dir, runId)).mtimeMs,
      sessionId: session?.type === "session" ? session.sessionId : undefined,
    };
  }

  /** A run's first event, and its run.finished when that is the last line: read from the log's two ends, not whole. */
  private ends(runId: string): { first?: OdEvent; finished?: Extract<OdEvent, { type: "run.finished" }> } {
    const { first, last } = logEnds(this.path(runId, "events.jsonl"));
    const parse = (line: string | undefined) => {
      try {
        return line === undefined ? undefined : OdEvent.parse(JSON.parse(line));
      } catch {
        return undefined;
      }
    };
    const end = parse(last);
    return { first: parse(first), finished: end?.type === "run.finished" ? end : undefined };
  }

  /** A crash mid-write can leave a partial last line: end it, so the next event starts on its own line. */
  private sealTornLine(runId: string): void {
    try {
      const text = readFileSync(this.path(runId, "events.jsonl"), "utf8");
      if (text && !text.endsWith("\n")) appendFileSync(this.path(runId, "events.jsonl"), "\n");
    } catch {}
  }

  /** Run ids, newest first. */
  list(limit = 50): string[] {
    if (!existsSync(this.dir)) return [];
    return readdirSync(this.dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && /^[\w-]+$/.test(d.name))
      .map((d) => ({ id: d.name, t: statSync(join(this.dir, d.name)).mtimeMs }))
      .sort((a, b) => b.t - a.t)
      .slice(0, limit)
      .map((r) => r.id);
  }

  /**
   * Runs that were live when a previous server died end here, failed with a
   * clear reason, so nothing is left "running" forever. Returns their ids.
   * `endSurvivors` is given them first, to end the processes they left; `canResume` says whether
   * an agent can take a session back (its adapter's capabilities.resume), for `resumable`.
   */
  recover(
    reason = "the od server stopped while this run was live",
    endSurvivors?: (runIds: string[]) => void,
    canResume: (agent: string) => boolean = () => false,
  ): string[] {
    const live: Array<{ runId: string; nextSeq: number; startedAt?: number; sessionId?: string; resumable: boolean }> = [];
    for (const runId of this.list(Number.MAX_SAFE_INTEGER)) {
      if (this.ends(runId).finished) continue;
      const events = this.read(runId);
      if (events.some((e) => e.type === "run.finished")) continue;
      const session = events.findLast((e) => e.type === "session");
      const sessionId = session?.type === "session" ? session.sessionId : undefined;
      const started = events.find((e) => e.type === "run.started");
      const resumable = sessionId !== undefined && started?.type === "run.started" && canResume(started.agent);
      live.push({ runId, nextSeq: (events.at(-1)?.seq ?? -1) + 1, startedAt: events[0]?.ts, sessionId, resumable });
    }
    // First what the dead server's agents left running ends (the caller knows how): a run said failed runs no more.
    if (live.length) endSurvivors?.(live.map((r) => r.runId));
    for (const { runId, nextSeq, startedAt, sessionId, resumable } of live) {
      this.sealTornLine(runId);
      const stamp = createStamper(runId, nextSeq);
      this.append(stamp({ type: "error", code: "AGENT_CRASHED", message: reason, hint: "Start the run again.", retryable: false }));
      this.append(
        stamp({
          type: "run.finished",
          status: "failed",
          exitCode: null,
          signal: null,
          durationMs: Date.now() - (startedAt ?? Date.now()),
          sessionId,
          resumable,
        }),
      );
    }
    return live.map((r) => r.runId);
  }
}
