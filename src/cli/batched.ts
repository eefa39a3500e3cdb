import type { Out } from "./out.ts";
import type { Sink } from "./render.ts";

/** Characters held before a batch is written without waiting for the loop to turn. */
const MAX_HELD = 8 * 1024;

/**
 * stdout and stderr written in batches, in order, through out.ts (`streaming`: about half the CPU
 * of Node's `process.stdout.write`, and a failed write is said rather than thrown at the loop).
 * What is written waits until the event loop turns (setImmediate), so a burst of events read from
 * one chunk of the agent's pipe costs one write per stream instead of one per event, while a lone
 * event waits microseconds. One write is in flight at a time: what comes meanwhile joins the next
 * batch (a slow reader gets fewer, larger writes; nothing is reordered). A reader gone (EPIPE)
 * drops the rest quietly; any other failure (a full disk) stops the writing and is `drained()`'s
 * error, after `onFailure` was told (`od run` cancels the run: its output could not be kept).
 */
export function batchedSinks(out: Out, err: Out, onFailure: (err: unknown) => void = () => {}) {
  let queue: Array<{ to: Out; text: string }> = [];
  let held = 0;
  let scheduled = false;
  let writing: Promise<void> | undefined;
  let failure: unknown;
  const drain = async () => {
    while (queue.length && failure === undefined) {
      const writes = queue;
      queue = [];
      held = 0;
      for (const { to, text } of writes) await to.write(text);
    }
  };
  const flush = () => {
    scheduled = false;
    if (writing || failure !== undefined) return; // the write in flight takes the queue when it is done
    writing = drain()
      .catch((e) => {
        failure = e;
        queue = [];
        onFailure(e);
      })
      .finally(() => {
        writing = undefined;
      });
  };
  const through = (to: Out): Sink => ({
    write(text: string) {
      if (failure !== undefined) return false;
      const last = queue.at(-1);
      if (last?.to === to) last.text += text;
      else queue.push({ to, text });
      held += text.length;
      // While the agent's output keeps coming the loop may not turn for a while: a full batch goes now.
      if (held >= MAX_HELD) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
      return true;
    },
  });
  /** Everything written so far, out; rejects with the failure that stopped the writing. */
  const drained = async (): Promise<void> => {
    while (writing || queue.length) {
      if (!writing) flush();
      await writing;
    }
    if (failure !== undefined) throw failure;
  };
  return { out: through(out), err: through(err), flush, drained };
}
