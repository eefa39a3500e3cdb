/** Reading an agent's output streams once its process group is gone: bounded waits, one chunk per turn. */

import { DEFAULT_MAX_LINE_BYTES, type Frame, LineFramer } from "./lines.ts";

/** Once the agent's group is gone, a read of its stdout that waits this long for nothing ends the lines. */
export const QUIET_AFTER_EXIT_MS = 1000;
/** stderr is only a diagnostic tail: once the group is gone it ends after this, even if something still writes to it. */
export const STDERR_AFTER_EXIT_MS = 1500;

/**
 * A stream's chunks until it ends, or until `exited` has settled and one read
 * then waits `quietMs` for nothing (the reader is cancelled, which ends that
 * read), or `capMs` after `exited` whatever comes. Output already written is
 * never cut short of the cap: a read that has data resolves at once, however
 * late the consumer asks.
 */
export async function* untilQuiet(
  stream: ReadableStream<Uint8Array>,
  exited: Promise<unknown>,
  quietMs: number,
  capMs = Number.POSITIVE_INFINITY,
): AsyncGenerator<Uint8Array> {
  const reads = new QuietReads(stream, exited, quietMs, capMs);
  try {
    for (let chunk = await reads.next(); chunk; chunk = await reads.next()) yield chunk;
  } finally {
    await reads.close();
  }
}

/** `untilQuiet` as calls, for a loop that does more per chunk than pass it on (no generator step of its own). */
export class QuietReads {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private gone = false;
  private reading = false;
  private ended = false;
  private quiet: ReturnType<typeof setTimeout> | undefined;
  private cap: ReturnType<typeof setTimeout> | undefined;

  constructor(
    stream: ReadableStream<Uint8Array>,
    exited: Promise<unknown>,
    private readonly quietMs: number,
    capMs = Number.POSITIVE_INFINITY,
  ) {
    this.reader = stream.getReader();
    exited.then(() => {
      this.gone = true;
      if (this.ended) return;
      if (Number.isFinite(capMs)) this.cap = setTimeout(this.stop, capMs).unref();
      if (this.reading) this.watch();
    });
  }

  /** The next chunk; undefined once the stream ended or was cut (then `close`). */
  async next(): Promise<Uint8Array | undefined> {
    this.reading = true;
    if (this.gone) this.watch();
    const next = await this.reader.read();
    this.reading = false;
    clearTimeout(this.quiet);
    return next.done ? undefined : next.value;
  }

  async close(): Promise<void> {
    this.ended = true;
    clearTimeout(this.quiet);
    clearTimeout(this.cap);
    await this.reader.cancel().catch(() => {});
  }

  private readonly stop = () => this.reader.cancel().catch(() => {});
  // Unreferenced: a pending read keeps od alive until they fire; nothing else should (a stream done before
  // the exit is known must not keep `od run` waiting out a timer after run.finished).
  private watch(): void {
    this.quiet = setTimeout(this.stop, this.quietMs);
    this.quiet.unref();
  }
}

/**
 * An agent's stdout as frames, one array per chunk (`frameChunks`), until it is quiet after the
 * exit (`untilQuiet`), one chunk per turn of the event loop. While an agent writes faster than od
 * reads, its next chunk is always there, and reading it would go on in promise callbacks, never
 * returning to the loop: what od wrote meanwhile (to an SSE client, to its own stdout) waits in
 * buffers the loop flushes, and timers and other runs wait too. At full speed through `od serve`
 * that wait was over a millisecond per event. Reading, framing and the turn are one loop: one
 * generator step per chunk (three stacked generators took three).
 */
export async function* framesPerTurn(
  stream: ReadableStream<Uint8Array>,
  exited: Promise<unknown>,
  maxLineBytes = DEFAULT_MAX_LINE_BYTES,
  quietMs = QUIET_AFTER_EXIT_MS,
): AsyncGenerator<Frame[]> {
  const reads = new QuietReads(stream, exited, quietMs);
  const framer = new LineFramer(maxLineBytes);
  try {
    for (let chunk = await reads.next(); chunk; chunk = await reads.next()) {
      const frames = framer.push(chunk);
      if (frames.length) yield frames;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const last = framer.end();
    if (last.length) yield last;
  } finally {
    await reads.close();
  }
}
