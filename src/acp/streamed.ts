/**
 * How far a prompt's updates have gone to the client, so that a permission request never overtakes
 * them: the run asks (the broker) as soon as the agent does, while the updates before the question
 * (the tool_call it is about) may still be on their way. The prompt's loop marks each question it
 * passes; the broker waits for its own before asking.
 */
export class Streamed {
  private readonly passed = new Set<string>();
  private readonly waiting = new Map<string, Array<() => void>>();
  private ended = false;

  /** The loop has sent every update before the question `askId` (its permission.request event). */
  pass(askId: string): void {
    this.passed.add(askId);
    for (const wake of this.waiting.get(askId) ?? []) wake();
    this.waiting.delete(askId);
  }

  /** The loop is over (the run ended, or failed): nobody waits any longer. */
  end(): void {
    this.ended = true;
    for (const wakes of this.waiting.values()) for (const wake of wakes) wake();
    this.waiting.clear();
  }

  /** Resolves once the updates before question `askId` are sent, the loop ends, or `signal` aborts. */
  reached(askId: string, signal?: AbortSignal): Promise<void> {
    if (this.ended || this.passed.has(askId) || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        signal?.removeEventListener("abort", wake);
        resolve();
      };
      signal?.addEventListener("abort", wake, { once: true });
      this.waiting.set(askId, [...(this.waiting.get(askId) ?? []), wake]);
    });
  }
}
