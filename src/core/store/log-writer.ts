import { closeSync, fstatSync, ftruncateSync, openSync } from "node:fs";
import type { OdError } from "../contract/errors.ts";
import type { OdEvent } from "../contract/events.ts";
import { type StoreIo, storageError, writeBytes } from "./fault.ts";
import { type LogBatch, type LogCursor, type LoggedEvent, readLogFile } from "./log-read.ts";

const BATCH_EVENTS = 256;
const BATCH_BYTES = 64 * 1024;
const BATCH_MS = 25;
const NL = 10;

/**
 * A live run's events.jsonl, kept open and written in batches (at most 256
 * events or 64 KiB, or 25 ms, behind): one syscall per batch instead of an
 * open, a write and a close per event. It is also what readers of the live run
 * read: a reader behind the last batch written gets its lines from the file,
 * a reader at the tail gets them from the batch in memory. The batch is one
 * reused buffer, not an object per event: nothing an event leaves here lives
 * long enough to burden the garbage collector, and memory holds one batch per
 * run however many readers there are and however slow they read.
 *
 * A write that fails (a full disk) is not thrown at whoever appended or at a
 * timer: the writer is failed from then on, `onFail` is told once, the file
 * keeps the whole lines it had, and the failed batch and whatever is appended
 * after it (the run's last words) are kept in memory for its readers.
 */
export interface LogWriterDeps extends StoreIo {
  onFail?: (err: OdError) => void;
}

export class LogWriter {
  private readonly fd: number;
  /** The batch: `used` bytes of lines, and for each line its seq, type and end. */
  private readonly buf = Buffer.allocUnsafe(BATCH_BYTES);
  private used = 0;
  private readonly seqs: number[] = [];
  private readonly types: string[] = [];
  private readonly ends: number[] = [];
  /** Bytes in the file. */
  private size: number;
  /** The last seq in the file. */
  private written = -1;
  /** The first seq of each batch written, with its offset: where a reader that knows only a seq starts. */
  private readonly batches: Array<{ seq: number; offset: number }> = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  private failure: OdError | undefined;
  /** Once failed: the events the file could not take (the failed batch, then what came after). */
  private readonly kept: LoggedEvent[] = [];

  constructor(
    readonly path: string,
    private readonly deps: LogWriterDeps = {},
  ) {
    try {
      this.fd = openSync(path, "a");
      this.size = fstatSync(this.fd).size;
    } catch (err) {
      throw storageError(err, `the run log ${path}`);
    }
  }

  /** Why the log stopped taking writes, once it has. */
  get failed(): OdError | undefined {
    return this.failure;
  }

  append(event: OdEvent): void {
    if (this.closed) return;
    const json = JSON.stringify(event);
    if (this.failure) {
      this.kept.push(lineOf(event, json));
      return;
    }
    // UTF-8 takes at most 3 bytes per UTF-16 unit; a line that may not fit goes after the batch, alone.
    if (this.used + json.length * 3 + 1 > this.buf.length) {
      this.flush();
      if (this.failure) {
        this.kept.push(lineOf(event, json));
        return;
      }
      if (json.length * 3 + 1 > this.buf.length) {
        this.commit(Buffer.from(`${json}\n`), event.seq, event.seq, () => [lineOf(event, json)]);
        return;
      }
    }
    this.used += this.buf.write(json, this.used);
    this.buf[this.used++] = NL;
    this.seqs.push(event.seq);
    this.types.push(event.type);
    this.ends.push(this.used);
    if (this.seqs.length >= BATCH_EVENTS || event.type === "run.finished") this.flush();
    else this.timer ??= setTimeout(() => this.flush(), BATCH_MS);
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.seqs.length || this.closed) return;
    // The batch's lines are made into strings only if the write fails (the hot path makes no object per event).
    this.commit(this.buf.subarray(0, this.used), this.seqs[0]!, this.seqs.at(-1)!, () => this.batchLines(0, Number.POSITIVE_INFINITY));
    this.used = 0;
    this.seqs.length = 0;
    this.types.length = 0;
    this.ends.length = 0;
  }

  /** Writes `bytes` (the events `first` to `last`) to the file; a write that fails fails the writer, keeping `lines()` in memory. */
  private commit(bytes: Uint8Array, first: number, last: number, lines: () => LoggedEvent[]): void {
    const write = this.deps.write ?? writeBytes;
    try {
      for (let done = 0; done < bytes.length; ) done += write(this.fd, bytes, done);
    } catch (err) {
      this.failure = storageError(err, `the run log ${this.path}`);
      this.kept.push(...lines());
      // A write cut short leaves part of a line: take it back where the disk allows (readers never read past `size`).
      try {
        ftruncateSync(this.fd, this.size);
      } catch {}
      this.deps.onFail?.(this.failure);
      return;
    }
    this.batches.push({ seq: first, offset: this.size });
    this.size += bytes.length;
    this.written = last;
  }

  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    try {
      closeSync(this.fd);
    } catch {}
  }

  /** The events after `cursor`, about `maxBytes` of them: from the file while the reader is behind it, then from memory. */
  read(cursor: LogCursor, maxBytes: number): LogBatch {
    if (cursor.seq < this.written)
      return readLogFile(this.path, cursor, cursor.offset ?? this.offsetOf(cursor.seq + 1), maxBytes, this.size);
    if (this.failure) return readKept(this.kept, cursor, maxBytes);
    const i = this.seqs.findIndex((seq) => seq > cursor.seq);
    if (i < 0) return { events: [], cursor };
    const events = this.batchLines(i, maxBytes);
    const start = this.ends[i + events.length - 1]!;
    // The batch goes to the file at its current end: once it is written, this reader goes on from there, reading no line twice.
    return { events, cursor: { seq: events.at(-1)!.seq, offset: this.size + start } };
  }

  /** The batch's lines from the `i`th, about `maxBytes` of them (at least one). */
  private batchLines(i: number, maxBytes: number): LoggedEvent[] {
    const events: LoggedEvent[] = [];
    let start = i ? this.ends[i - 1]! : 0;
    for (let bytes = 0; i < this.seqs.length && bytes < maxBytes; i++) {
      const end = this.ends[i]!;
      events.push({ seq: this.seqs[i]!, type: this.types[i]!, json: this.buf.toString("utf8", start, end - 1) });
      bytes += end - start;
      start = end;
    }
    return events;
  }

  /** The offset of the batch holding `seq` (the last one starting at or before it). */
  private offsetOf(seq: number): number {
    let lo = 0;
    let hi = this.batches.length - 1;
    let at = 0;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.batches[mid]!.seq <= seq) {
        at = this.batches[mid]!.offset;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return at;
  }
}

function lineOf(event: OdEvent, json: string): LoggedEvent {
  return { seq: event.seq, type: event.type, json };
}

/** The kept events after `cursor`, about `maxBytes` of them. */
function readKept(kept: LoggedEvent[], cursor: LogCursor, maxBytes: number): LogBatch {
  const events: LoggedEvent[] = [];
  for (let i = kept.findIndex((e) => e.seq > cursor.seq), bytes = 0; i >= 0 && i < kept.length && bytes < maxBytes; i++) {
    events.push(kept[i]!);
    bytes += kept[i]!.json.length + 1;
  }
  return events.length ? { events, cursor: { seq: events.at(-1)!.seq } } : { events, cursor };
}
