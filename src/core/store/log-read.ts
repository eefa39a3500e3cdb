import { closeSync, fstatSync, openSync, readSync } from "node:fs";

/** One event as the run log holds it: its seq and type, and its JSON line (without the newline). */
export interface LoggedEvent {
  seq: number;
  type: string;
  json: string;
}

/** Where a reader of a run's log stands: the last seq it has, and the file offset just past it when known. */
export interface LogCursor {
  seq: number;
  offset?: number;
}

export interface LogBatch {
  events: LoggedEvent[];
  cursor: LogCursor;
}

const NL = 10;

/** One read buffer for every log read: a read is parsed whole before it returns, so it is never shared. */
const scratch = Buffer.allocUnsafe(64 * 1024);

/**
 * Reads the events after `cursor.seq` from an events.jsonl file, starting at
 * byte `from` (a line start at or before them), taking whole lines up to about
 * `maxBytes` and never past `limit`. A line longer than `maxBytes` is still
 * read whole. A line that is not JSON (a crash tore it) is skipped. The
 * cursor returned points just past the last line read, so the next read
 * starts there.
 */
export function readLogFile(path: string, cursor: LogCursor, from: number, maxBytes: number, limit = Number.POSITIVE_INFINITY): LogBatch {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return { events: [], cursor };
  }
  try {
    let size = Math.max(1, Math.min(maxBytes, limit - from));
    for (;;) {
      const buf = size <= scratch.length ? scratch : Buffer.allocUnsafe(size);
      const got = readSync(fd, buf, 0, size, from);
      if (got === 0) return { events: [], cursor };
      const end = buf.lastIndexOf(NL, got - 1);
      if (end < 0) {
        // No whole line: the end of what is written, or a line longer than one read.
        if (got < size || from + got >= limit) return { events: [], cursor };
        size *= 2;
        continue;
      }
      const batch = parseLines(buf.subarray(0, end + 1), cursor, from);
      // Lines the reader already has are skipped: go on until something new or the end.
      if (batch.events.length || got < size || from + got >= limit) return batch;
      cursor = batch.cursor;
      from = cursor.offset!;
      size = Math.max(1, Math.min(maxBytes, limit - from));
    }
  } finally {
    closeSync(fd);
  }
}

function parseLines(bytes: Buffer, cursor: LogCursor, from: number): LogBatch {
  const events: LoggedEvent[] = [];
  let seq = cursor.seq;
  let start = 0;
  while (start < bytes.length) {
    const nl = bytes.indexOf(NL, start);
    const json = bytes.toString("utf8", start, nl);
    start = nl + 1;
    let e: { seq?: unknown; type?: unknown };
    try {
      e = JSON.parse(json);
    } catch {
      continue;
    }
    if (typeof e?.seq !== "number" || typeof e.type !== "string" || e.seq <= seq) continue;
    seq = e.seq;
    events.push({ seq, type: e.type, json });
  }
  return { events, cursor: { seq, offset: from + bytes.length } };
}

/**
 * The first and the last whole line of a log file, read from its two ends
 * (`window` bytes each), not whole: what a finished run's summary needs. A
 * torn last line (a crash mid-write) is skipped. Either is undefined where the
 * file has no such line within the window (the caller then reads the log whole).
 */
export function logEnds(path: string, window = 64 * 1024): { first?: string; last?: string } {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return {};
  }
  try {
    const buf = window <= scratch.length ? scratch : Buffer.allocUnsafe(window);
    const head = buf.subarray(0, readSync(fd, buf, 0, window, 0));
    const firstEnd = head.indexOf(NL);
    if (firstEnd < 0) return {};
    const first = head.toString("utf8", 0, firstEnd);
    const from = Math.max(0, fstatSync(fd).size - window);
    const tail = from === 0 ? head : buf.subarray(0, readSync(fd, buf, 0, window, from));
    const end = tail.lastIndexOf(NL);
    const before = end > 0 ? tail.lastIndexOf(NL, end - 1) : -1;
    // Without a newline before it in the window, the line is whole only if the window starts the file.
    if (before < 0 && from > 0) return { first };
    return { first, last: tail.toString("utf8", before + 1, end) };
  } finally {
    closeSync(fd);
  }
}

/**
 * The whole lines in the last `window` bytes of a log file, in order (a line cut by the window's
 * start, and a torn last line, are left out): a finished run's closing events, its run.result and
 * run.finished, without reading the log whole.
 */
export function logTail(path: string, window = 64 * 1024): string[] {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return [];
  }
  try {
    const buf = window <= scratch.length ? scratch : Buffer.allocUnsafe(window);
    const from = Math.max(0, fstatSync(fd).size - window);
    const tail = buf.subarray(0, readSync(fd, buf, 0, window, from));
    const start = from === 0 ? 0 : tail.indexOf(NL) + 1;
    const end = tail.lastIndexOf(NL);
    if (start <= 0 && from > 0) return [];
    return end < start ? [] : tail.toString("utf8", start, end).split("\n");
  } finally {
    closeSync(fd);
  }
}
