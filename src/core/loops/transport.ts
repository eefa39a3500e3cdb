import { OdError } from "../contract/errors.ts";
import { isEventBody, type OdEventBody } from "../contract/events.ts";
import type { Loop, LoopSettings } from "../contract/loop.ts";
import type { Env } from "../contract/request.ts";
import { type Frame, TailBuffer } from "../os/lines.ts";
import type { AgentProcess, Exit } from "../os/process.ts";
import { DEFAULT_LADDER, type Ladder } from "../os/process-group.ts";

/** What the pipeline needs from a running agent: a spawned process, or a loop inside od. */
export type Transport = Pick<AgentProcess, "exited" | "lines" | "frames" | "send" | "closeStdin" | "stderrTail" | "cancel">;

export interface LoopSpec {
  /** invoke's argv: shown by run.started only, the loop never reads it (its settings are `settings`). */
  argv: string[];
  env: Env;
  cwd: string;
  stdin?: string;
  settings: LoopSettings;
}

/**
 * A loop run in place of a process: it starts at once and runs on its own (as a
 * child would), its events come out as `event` frames on `lines()`, its notes are its
 * stderr tail, and `cancel` aborts it, waiting at most as long as the signal
 * ladder would before giving up on it. `exited` is {0, null} when it returned,
 * {null, null} when it was stopped, {1, null} when it threw (reported as an error event).
 */
export class LoopProcess implements Transport {
  readonly exited: Promise<Exit>;
  private readonly controller = new AbortController();
  private readonly tail = new TailBuffer(16 * 1024);
  private readonly queue: OdEventBody[] = [];
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
      const ctx = { settings: spec.settings, env: spec.env, cwd: spec.cwd, prompt: spec.stdin ?? "", signal, note };
      for await (const body of loop.run(ctx)) {
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
    this.queue.push(checked(body));
    this.wake?.();
  }

  private end(): void {
    this.ended = true;
    this.wake?.();
  }

  async *lines(): AsyncGenerator<Frame> {
    for await (const frames of this.frames()) yield* frames;
  }

  /** What the loop queued since the last step, as `event` frames, in one array. */
  async *frames(): AsyncGenerator<Frame[]> {
    for (;;) {
      if (this.queue.length) yield this.queue.splice(0).map((body): Frame => ({ kind: "event", body }));
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

/**
 * The guarantee a line driver gives, kept for bodies that never become lines:
 * the run.* events are the pipeline's own (one run.started, one run.finished),
 * and anything not a valid event body is kept as `raw` rather than passed on.
 * A loop is od's own code and emits few events, so a full parse each is cheap.
 */
export function checked(body: unknown): OdEventBody {
  if (isEventBody(body)) return body;
  let line: string;
  try {
    line = JSON.stringify(body) ?? String(body);
  } catch {
    line = String(body); // a cycle or a BigInt: still shown, never thrown into the pipeline
  }
  return { type: "raw", stream: "stdout", line };
}
