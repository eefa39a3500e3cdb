import type { OdEvent } from "../contract/events.ts";
import type { RunRequest } from "../contract/request.ts";
import type { LogWriter } from "../store/log-writer.ts";
import type { RunSummary } from "../store/summary.ts";

/** How far a follower may fall behind before the run waits for it (the agent, behind od's pipe, waits too). */
const FOLLOW_QUEUE = 1024;

/**
 * A run the service drives: its log (the one copy of its events, which readers read at their own
 * pace), its summary kept as events pass, who to wake when one does, and its followers: consumers
 * that render every event as it comes (a terminal, an editor), fed objects, not log lines.
 */
export interface LiveRun {
  runId: string;
  request: RunRequest;
  /** Undefined until the run is recorded (its first event that is not a refusal). */
  log?: LogWriter;
  summary: RunSummary;
  /** The last seq that passed (-1 before the first). */
  seq: number;
  finished: boolean;
  controller: AbortController;
  /** Readers of the log to tell of each event (an SSE client). */
  watchers: Set<() => void>;
  followers: Set<Follower<Passed>>;
  /** Permission questions waiting for an answer (`decide`), by ask id. */
  asks: Map<string, (decision: "allow" | "deny" | undefined) => void>;
  done: Promise<void>;
}

/** Tells a run's readers that it logged an event or ended. */
export function wake(run: LiveRun): void {
  for (const onChange of run.watchers) onChange();
}

/** An event as it passed: the object, and its JSON (the run log's line, without its newline), made once for both. */
export interface Passed {
  event: OdEvent;
  json: string;
}

/** One consumer of a run's events (or a compare run's items) as objects, in order, with back-pressure on the producer. */
export class Follower<T> {
  private queue: T[] = [];
  private waiting: (() => void) | undefined;
  private drained: PromiseWithResolvers<void> | undefined;
  private ended = false;

  /** Queues an item (the producer calls it). A consumer waiting wakes once the producer's current step is done. */
  push(item: T): void {
    if (this.ended) return;
    this.queue.push(item);
    const wake = this.waiting;
    this.waiting = undefined;
    wake?.();
  }

  /** The run is over: a follower that took everything ends. */
  end(): void {
    this.ended = true;
    this.waiting?.();
    this.waiting = undefined;
    this.drained?.resolve();
  }

  /** Resolves when the follower has room again (at once while it keeps up). */
  room(): Promise<void> | undefined {
    if (this.queue.length < FOLLOW_QUEUE || this.ended) return undefined;
    this.drained ??= Promise.withResolvers();
    return this.drained.promise;
  }

  /** The next item, or undefined once the producer has ended and every item was taken. */
  next(): Promise<T | undefined> {
    if (this.queue.length) {
      const item = this.queue.shift()!;
      if (this.queue.length < FOLLOW_QUEUE / 2) this.relieve();
      return Promise.resolve(item);
    }
    if (this.ended) return Promise.resolve(undefined);
    return this.woken().then(() => this.next());
  }

  /** Every item queued (at least one), or undefined once the producer has ended and every item was taken. */
  batch(): Promise<T[] | undefined> {
    if (this.queue.length) {
      const items = this.queue;
      this.queue = [];
      this.relieve();
      return Promise.resolve(items);
    }
    if (this.ended) return Promise.resolve(undefined);
    // Resumed in a callback after the push that woke it: by then the producer has pushed the rest of its step.
    return this.woken().then(() => this.batch());
  }

  /** The consumer went away: nothing more is kept for it, and the run does not wait for it. */
  close(): void {
    this.queue = [];
    this.end();
  }

  private woken(): Promise<void> {
    return new Promise((resolve) => (this.waiting = resolve));
  }

  private relieve(): void {
    this.drained?.resolve();
    this.drained = undefined;
  }
}

/** A permission question that waits for `decide`, or for the run to stop asking. */
export function ask(run: LiveRun, askId: string, signal: AbortSignal): Promise<"allow" | "deny" | undefined> {
  return new Promise((resolve) => {
    const done = (decision: "allow" | "deny" | undefined) => {
      run.asks.delete(askId);
      resolve(decision);
    };
    run.asks.set(askId, done);
    signal.addEventListener("abort", () => done(undefined), { once: true });
  });
}
