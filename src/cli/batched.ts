import type { Sink } from "./render.ts";

/**
 * stdout and stderr written in batches, in order. What is written waits until
 * the event loop turns (setImmediate), so a burst of events read from one
 * chunk of the agent's pipe costs one write per stream instead of one per event
 * (each write is a syscall: 60% of `od run --json`'s CPU at full speed), while
 * a lone event waits microseconds. Writes keep their order across the two.
 */
export function batchedSinks(out: Sink, err: Sink) {
  let queue: Array<{ to: Sink; text: string }> = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const held = queue;
    queue = [];
    for (const { to, text } of held) to.write(text);
  };
  const through = (to: Sink): Sink => ({
    write(text: string) {
      const last = queue.at(-1);
      if (last?.to === to) last.text += text;
      else queue.push({ to, text });
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
      return true;
    },
  });
  return { out: through(out), err: through(err), flush };
}
