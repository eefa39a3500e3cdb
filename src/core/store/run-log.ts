import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { OdError } from "../contract/errors.ts";
import { OdEvent } from "../contract/events.ts";
import { MIN_FREE_BYTES, probeStorage, type StoreIo, storageError } from "./fault.ts";
import { type LogBatch, type LogCursor, logEnds, logTail, readLogFile } from "./log-read.ts";
import { LogWriter } from "./log-writer.ts";
import { noteEvent, type RunSummary, requestSummary } from "./summary.ts";

export type { RunSummary } from "./summary.ts";

/**
 * The durable per-run event log: `<dir>/<runId>/events.jsonl`, one event per
 * line, appended as it happens, plus the request that started the run. A
 * server restart replays whole runs from here. A failure to write it is a
 * STORAGE error (a full disk, a read-only home), never a bug.
 */
export class RunLog {
  /** Nothing is written until a run is recorded: a home od cannot write fails that run's record, not this. */
  constructor(
    readonly dir: string,
    private readonly io: StoreIo = {},
  ) {}

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

  /** A new run's log: its request written, and the writer its events go through (`onFail` told if a write fails). */
  open(runId: string, request: unknown, onFail?: (err: OdError) => void): LogWriter {
    this.create(runId, request);
    try {
      return this.writer(runId, onFail);
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

  /** Every valid event of a run, in order, up to its run.finished (a line after it is no part of the run); a torn line is skipped. */
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
        const event = OdEvent.parse(JSON.parse(line));
        events.push(event);
        if (event.type === "run.finished") break;
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
    const summary = requestSummary(runId, this.request(runId) ?? {});
    // A finished run is summed up by its first event and its last ones (run.result, run.finished), read from the log's two ends.
    const first = parseEvent(logEnds(this.path(runId, "events.jsonl")).first);
    const tailOf = (window: number) => logTail(this.path(runId, "events.jsonl"), window).flatMap((line) => parseEvent(line) ?? []);
    let tail = tailOf(64 * 1024);
    const whole = first && tail.at(-1)?.type === "run.finished";
    // Its run.result (the usage) just before: a large one (a long diff) is looked for further back, within bounds.
    if (whole && !tail.some((e) => e.type === "run.result")) tail = tailOf(4 * 1024 * 1024);
    const events = whole ? [first, ...tail.filter((e) => e.seq > first.seq)] : this.read(runId);
    for (const [i, e] of events.entries()) noteEvent(summary, e, i === 0);
    if (!events.length) summary.startedAt = statSync(join(this.dir, runId)).mtimeMs;
    return summary;
  }

  /** A crash mid-write can leave a partial last line: end it, so the next event starts on its own line. */
  seal(runId: string): void {
    try {
      const text = readFileSync(this.path(runId, "events.jsonl"), "utf8");
      if (text && !text.endsWith("\n")) appendFileSync(this.path(runId, "events.jsonl"), "\n");
    } catch {}
  }

  /** Run ids, newest first; a compare run's folder (its group.json, no events of its own) is no run. */
  list(limit = 50): string[] {
    return this.entries(limit, (name) => !existsSync(join(this.dir, name, "group.json")));
  }

  /** Folder names under the log, newest first, that `keep` takes. */
  entries(limit = 50, keep: (name: string) => boolean = () => true): string[] {
    if (!existsSync(this.dir)) return [];
    return readdirSync(this.dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && /^[\w-]+$/.test(d.name) && keep(d.name))
      .map((d) => ({ id: d.name, t: statSync(join(this.dir, d.name)).mtimeMs }))
      .sort((a, b) => b.t - a.t)
      .slice(0, limit)
      .map((r) => r.id);
  }
}

function parseEvent(line: string | undefined): OdEvent | undefined {
  try {
    return line === undefined ? undefined : OdEvent.parse(JSON.parse(line));
  } catch {
    return undefined;
  }
}
