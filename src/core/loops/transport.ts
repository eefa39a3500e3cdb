import { OdError } from "../errors.ts";
import type { OdEventBody } from "../events.ts";
import { type Frame, TailBuffer } from "../os/lines.ts";
import { type AgentProcess, DEFAULT_LADDER, type Exit, type Ladder } from "../os/process.ts";

export type Env = Record<string, string | undefined>;

/** What an in-process loop gets: the same things a spawned agent would (argv, env, stdin, cwd), plus a cancel signal. */
export interface LoopContext {
  /** invoke's argv (without the label in `bin`). */
  argv: string[];
  env: Env;
  cwd: string;
  /** invoke's stdin: the composed prompt. */
  prompt: string;
  /** Aborted on cancel, timeout, a final error or when the consumer stops: the loop must end soon after. */
  signal: AbortSignal;
  /** The loop's diagnostic channel (its "stderr"): a bounded tail, used in closing hints, never shown as text. */
  note: (line: string) => void;
}

/**
 * An agent loop od owns, chosen by name from an adapter's `{ kind: "loop" }`
 * protocol. `run` streams od event bodies and returns when the turn is over; it
 * reports failures as `error` events and never needs to emit `run.started` or
 * `run.finished` (the pipeline does).
 */
export interface Loop {
  name: string;
  run: (ctx: LoopContext) => AsyncIterable<OdEventBody>;
  /** Where it would send requests with this environment, for `od agents` (display only). */
  endpoint?: (env: Env) => string | undefined;
}

/** What the pipeline needs from a running agent: a spawned process, or a loop inside od. */
export type Transport = Pick<AgentProcess, "exited" | "lines" | "send" | "closeStdin" | "stderrTail" | "cancel">;

export interface LoopSpec {
  argv: string[];
  env: Env;
  cwd: string;
  stdin?: string;
}

/**
 * A loop run in place of a process: it starts at once and runs on its own (as a
 * child would), its events come out as JSON lines on `lines()`, its notes are its
 * stderr tail, and `cancel` aborts it, waiting at most as long as the signal
 * ladder would before giving up on it. `exited` is {0, null} when it returned,
 * {null, null} when it was stopped, {1, null} when it threw (reported as an error event).
 */
export class LoopProcess implements Transport {
  readonly exited: Promise<Exit>;
  private readonly controller = new AbortController();
  private readonly tail = new TailBuffer(16 * 1024);
  private readonly queue: string[] = [];
  private ended = false;
  private wake: (() => void) | undefined;
  private abandon: ((exit: Exit) => void) | undefined;

  constructor(loop: Loop, spec: LoopSpec) {
    const abandoned = new Promise<Exit>((resolve) => (this.abandon = resolve));
    this.exited = Promise.race([this.pump(loop, spec), abandoned]).then((exit) => {
      this.end();
      return exit;
    });
  }

  private async pump(loop: Loop, spec: LoopSpec): Promise<Exit> {
    const signal = this.controller.signal;
    let exitCode = 0;
    try {
      const note = (line: string) => this.tail.push(new TextEncoder().encode(`${line}\n`));
      for await (const body of loop.run({ argv: spec.argv, env: spec.env, cwd: spec.cwd, prompt: spec.stdin ?? "", signal, note })) {
        if (this.ended) break;
        this.push(body);
      }
    } catch (err) {
      if (!signal.aborted) {
        this.push({ type: "error", ...OdError.from(err).toJSON() });
        exitCode = 1;
      }
    }
    return signal.aborted ? { exitCode: null, signal: null } : { exitCode, signal: null };
  }

  private push(body: OdEventBody): void {
    if (this.ended) return;
    this.queue.push(JSON.stringify(body));
    this.wake?.();
  }

  private end(): void {
    this.ended = true;
    this.wake?.();
  }

  async *lines(): AsyncGenerator<Frame> {
    for (;;) {
      const text = this.queue.shift();
      if (text !== undefined) yield { kind: "line", text };
      else if (this.ended) return;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  /** A loop reads no stdin after its prompt. */
  send(): void {}

  closeStdin(): void {}

  async stderrTail(): Promise<string> {
    return this.tail.text();
  }

  async cancel(ladder: Ladder = DEFAULT_LADDER): Promise<void> {
    this.controller.abort();
    const bound = ladder.intMs + ladder.termMs + ladder.killMs;
    const done = await Promise.race([this.exited.then(() => true), Bun.sleep(bound).then(() => false)]);
    if (!done) {
      this.tail.push(new TextEncoder().encode(`the loop ignored cancel for ${bound} ms and was abandoned\n`));
      this.abandon?.({ exitCode: null, signal: null });
    }
  }
}
