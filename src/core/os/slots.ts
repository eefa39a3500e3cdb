import { OdError } from "../contract/errors.ts";

/**
 * A counting semaphore: at most `limit` holders at once, the rest wait in order, and a cancelled
 * waiter leaves the queue. Runs take one per run (od serve's --max-runs); probes one per core.
 */
export class Slots {
  private used = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new OdError("INVALID_REQUEST", `max runs must be a positive integer, not ${limit}`);
  }

  get running(): number {
    return this.used;
  }

  get queued(): number {
    return this.waiters.length;
  }

  /** `f` in a slot: waits for one, and gives it back however `f` ends. */
  async run<T>(f: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await f();
    } finally {
      release();
    }
  }

  /** A release function if a slot is free now, else undefined. */
  tryAcquire(): (() => void) | undefined {
    if (this.used >= this.limit) return undefined;
    this.used++;
    return this.releaser();
  }

  /** Waits for a slot; rejects with CANCELLED if the signal aborts first. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    const now = this.tryAcquire();
    if (now) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener("abort", onAbort);
        this.used++;
        resolve(this.releaser());
      };
      const onAbort = () => {
        const i = this.waiters.indexOf(grant);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(new OdError("CANCELLED", "Cancelled while queued"));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiters.push(grant);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used--;
      this.waiters.shift()?.();
    };
  }
}
