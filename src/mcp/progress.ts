import type { ServerNotification } from "@modelcontextprotocol/sdk/types.js";

type Send = (notification: ServerNotification) => Promise<void>;

interface Pending {
  message: string;
  /** Streamed text, which may be joined with the text next to it; a note goes alone. */
  text: boolean;
}

/**
 * A run's progress notifications to the client that asked for them (a progressToken in the call's
 * _meta): a note when the run starts (its runId, for cancel_run), then the streamed text. The run
 * never waits for the client: messages queue while one is on its way, and text queued meanwhile
 * goes as one message. `flush` waits for the queue, so every notification comes before the result.
 */
export class Progress {
  private count = 0;
  private queue: Pending[] = [];
  private pumping: Promise<void> | undefined;

  constructor(
    private readonly token: string | number | undefined,
    private readonly send: Send,
  ) {}

  /** A line of its own: the run started, a tool was called. */
  note(message: string): void {
    this.push({ message, text: false });
  }

  /** Assistant text as it streams. */
  text(delta: string): void {
    if (delta) this.push({ message: delta, text: true });
  }

  /** Resolves once every queued notification has been sent (or failed to be: the client may be gone). */
  flush(): Promise<void> {
    return this.pumping ?? Promise.resolve();
  }

  private push(p: Pending): void {
    if (this.token === undefined) return;
    this.queue.push(p);
    this.pumping ??= this.pump();
  }

  private async pump(): Promise<void> {
    while (this.queue.length) {
      const first = this.queue.shift()!;
      let message = first.message;
      while (first.text && this.queue[0]?.text) message += this.queue.shift()!.message;
      this.count += 1;
      const params = { progressToken: this.token!, progress: this.count, message };
      await this.send({ method: "notifications/progress", params }).catch(() => {});
    }
    this.pumping = undefined;
  }
}
