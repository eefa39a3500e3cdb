import type { Transport } from "../loops/transport.ts";
import type { Ladder } from "../os/process-group.ts";

export type StopReason = "cancelled" | "timeout" | "idle" | "final";

export interface SupervisorOptions {
  signal?: AbortSignal;
  ladder?: Ladder;
  /** Give up after this long (the request's timeout). */
  timeoutMs?: number;
  /** No output for this long ends the run (the driver's stage watchdog, or the caller's override). */
  idleMs?: number;
  /** After a protocol abort or a final error, how long the agent gets to end on its own before signals. */
  abortGraceMs?: number;
  /** After the driver reports the turn done, how long the agent gets to exit on its own. */
  doneGraceMs?: number;
  /** The protocol's own abort messages (empty when it has none), sent before any signal. */
  abort: () => unknown[];
}

/**
 * Every clock of a running agent in one object: the run's timeout, the idle
 * watchdog, the grace after the turn is done, and the cancel ladder they all
 * end in. The drive stage reports activity and the end of the turn; whoever
 * stops the run (the user's signal, a clock, a final error) stops it here,
 * once, and the reason decides how the run is reported.
 */
export class Supervisor {
  stopped: StopReason | undefined;
  /** The turn was done and the agent did not exit within the grace, so od ended it: how it died is od's doing. */
  reaped = false;
  private readonly stopping = new AbortController();
  private readonly timers: Array<ReturnType<typeof setTimeout>> = [];
  private idle: ReturnType<typeof setTimeout> | undefined;
  private readonly onAbort = () => this.stop("cancelled");

  constructor(
    private readonly transport: Transport,
    private readonly opts: SupervisorOptions,
  ) {
    opts.signal?.addEventListener("abort", this.onAbort, { once: true });
    if (opts.timeoutMs) this.later(() => this.stop("timeout"), opts.timeoutMs);
    this.activity();
  }

  /** Aborted once the run is stopping: a question pending with the user waits no longer than the run. */
  get signal(): AbortSignal {
    return this.stopping.signal;
  }

  /** The agent's stderr tail (a loop's notes), for closing hints. */
  readonly transportTail = (): Promise<string> => this.transport.stderrTail();

  /** Output arrived: the idle watchdog starts over. */
  activity(): void {
    clearTimeout(this.idle);
    if (this.opts.idleMs) this.idle = setTimeout(() => this.stop("idle"), this.opts.idleMs);
  }

  /**
   * Stops the run, once. A protocol abort, or a final error (the agent may still
   * print its result and exit by itself), gets a grace period before signals; a
   * user's cancel without a protocol abort is immediate.
   */
  stop(why: StopReason): void {
    if (this.stopped) return;
    this.stopped = why;
    this.stopping.abort();
    let abort: unknown[] = [];
    try {
      abort = this.opts.abort();
    } catch {}
    for (const m of abort) this.transport.send(m);
    const grace = abort.length || why === "final" ? (this.opts.abortGraceMs ?? 1000) : 0;
    this.later(() => this.transport.cancel(this.opts.ladder), grace);
  }

  /** The driver says the turn is over: stdin closes, and an agent still there after the grace is ended. */
  turnDone(): void {
    this.transport.closeStdin();
    this.later(async () => {
      if (!(await isRunning(this.transport))) return; // it left by itself: its exit is its own
      this.reaped = true;
      await this.transport.cancel(this.opts.ladder);
    }, this.opts.doneGraceMs ?? 3000);
  }

  /** The output has ended: the watchdog and the user's signal no longer apply to this stage. */
  quiet(): void {
    clearTimeout(this.idle);
    this.opts.signal?.removeEventListener("abort", this.onAbort);
  }

  /** Clears every clock, and ends the agent if it is still there (a normal end, or a consumer that stopped early). */
  async close(): Promise<void> {
    this.quiet();
    for (const t of this.timers) clearTimeout(t);
    if (await isRunning(this.transport)) await this.transport.cancel(this.opts.ladder);
  }

  private later(f: () => unknown, ms: number): void {
    this.timers.push(setTimeout(f, ms));
  }
}

export async function isRunning(transport: Transport): Promise<boolean> {
  const done = await Promise.race([transport.exited.then(() => true), Bun.sleep(0).then(() => false)]);
  return !done;
}
