/** Reading an agent's output streams once its process group is gone: bounded waits, one chunk per turn. */

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
  const reader = stream.getReader();
  let gone = false;
  let reading = false;
  let ended = false;
  let quiet: ReturnType<typeof setTimeout> | undefined;
  let cap: ReturnType<typeof setTimeout> | undefined;
  const stop = () => reader.cancel().catch(() => {});
  // Unreferenced: a pending read keeps od alive until they fire; nothing else should (a stream done before
  // the exit is known must not keep `od run` waiting out a timer after run.finished).
  const watch = () => (quiet = setTimeout(stop, quietMs)).unref();
  exited.then(() => {
    gone = true;
    if (ended) return;
    if (Number.isFinite(capMs)) cap = setTimeout(stop, capMs).unref();
    if (reading) watch();
  });
  try {
    for (;;) {
      reading = true;
      if (gone) watch();
      const next = await reader.read();
      reading = false;
      clearTimeout(quiet);
      if (next.done) return;
      yield next.value;
    }
  } finally {
    ended = true;
    clearTimeout(quiet);
    clearTimeout(cap);
    await reader.cancel().catch(() => {});
  }
}

/**
 * One chunk of output per turn of the event loop. While an agent writes faster
 * than od reads, its next chunk is always there, and reading it would go on in
 * promise callbacks, never returning to the loop: what od wrote meanwhile (to an
 * SSE client, to its own stdout) waits in buffers the loop flushes, and timers
 * and other runs wait too. At full speed through `od serve` that wait was over
 * a millisecond per event.
 */
export async function* chunkPerTurn(stream: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  for await (const chunk of stream) {
    yield chunk;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
