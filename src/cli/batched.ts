import type { Sink } from "./render.ts";

/** Characters held before a batch is written without waiting for the loop to turn. */
const MAX_HELD = 8 * 1024;

/**
 * stdout and stderr written in batches, in order. What is written waits until
 * the event loop turns (setImmediate), so a burst of events read from one
 * chunk of the agent's pipe costs one write per stream instead of one per event
 * (each write is a syscall: 60% of `od run --json`'s CPU at full speed), while
 * a lone event waits microseconds. Writes keep their order across the two.
 */
export function batchedSinks(out: Sink, err: Sink) {
  let queue: Array<{ to: Sink; text: string }> = [];
  let held = 0;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const writes = queue;
    queue = [];
    held = 0;
    for (const { to, text } of writes) to.write(text);
  };
  const through = (to: Sink): Sink => ({
    write(text: string) {
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
  return { out: through(out), err: through(err), flush };
}
