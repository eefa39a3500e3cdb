/**
 * What a live run must not leave behind if od's own process exits under it
 * (a second Ctrl-C calls process.exit, which skips every `finally`): its
 * process group, the skill files it placed, its prompt file. Each run
 * registers its cleanup while it is live; on exit they all run, synchronously,
 * since an 'exit' handler cannot wait.
 */
const live = new Set<() => void>();
let installed = false;

/** Registers `cleanup` for an exit while the run is live; returns the unregister, for the run's normal end. */
export function untilExit(cleanup: () => void): () => void {
  if (!installed) {
    installed = true;
    process.once("exit", () => {
      for (const f of live)
        try {
          f();
        } catch {}
    });
  }
  live.add(cleanup);
  return () => live.delete(cleanup);
}
