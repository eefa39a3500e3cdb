import { runError } from "../contract/errors.ts";
import type { BodyOf, OdEventBody } from "../contract/events.ts";
import { type ChangesSource, localChanges } from "../workspace/changes.ts";
import { UsageMeter } from "./usage.ts";

const RAW_TAIL_BYTES = 8 * 1024;

/** The final text run.result carries at most: past it the text is cut, and says so. */
export const MAX_RESULT_TEXT = 1024 * 1024;

/**
 * Joins many small strings, a few hundred at a time, up to a bound. `s +=
 * delta` over a long answer keeps every delta alive as a rope node (10k deltas:
 * about 80 bytes each, held until the run ends); this holds the same text flat,
 * and past `max` characters holds nothing more (500k deltas took 1.2 GB).
 */
class TextJoin {
  private blocks: string[] = [];
  private pending: string[] = [];
  private length = 0;
  private cut = false;
  constructor(private readonly max = MAX_RESULT_TEXT) {}

  add(s: string): void {
    if (this.cut || !s) return;
    const room = this.max - this.length;
    if (s.length > room) {
      this.cut = true;
      s = s.slice(0, room);
    }
    this.length += s.length;
    this.pending.push(s);
    if (this.pending.length >= 256) {
      this.blocks.push(this.pending.join(""));
      this.pending = [];
    }
  }

  toString(): string {
    const text = this.blocks.join("") + this.pending.join("");
    return this.cut ? `${text}\n[od: the answer is longer than ${this.max} characters and was cut here]\n` : text;
  }
}

/**
 * What a run did, gathered as its bodies pass: the final text, the tool calls,
 * the first error, usage summed over turns, a bounded tail of raw stdout; and,
 * when it ends, the files changed in the working directory (with the git diff
 * in a repository). The pipeline emits it as `run.result`, just before run.finished.
 */
export class Summary {
  /** Where the files and diff come from: this machine's folder, a target's, or nowhere. */
  private readonly source: ChangesSource | undefined;
  /** The working directory as the agent found it: taken when the first attempt starts (after any wait for a slot), or before it (`early`). */
  private snapshotted = false;
  private started = false;
  private text = new TextJoin();
  private readonly usage = new UsageMeter();
  private readonly calls = new Map<string, { id: string; name: string; isError: boolean }>();
  private error: BodyOf<"error"> | undefined;
  private raw = "";

  /**
   * A folder (this machine's) or a changes source; undefined: the changed files are not tracked (the
   * caller has them another way, or did not ask). `skip`: folders under the folder that are not the
   * agent's work (od's own home, where the run log grows).
   */
  constructor(where: string | ChangesSource | undefined, skip: string[] = []) {
    this.source = typeof where === "string" ? localChanges(where, skip) : where;
  }

  /** An early source's picture, taken before the first attempt is launched (a round trip cannot race the agent). */
  async prepare(): Promise<void> {
    if (!this.source?.early || this.snapshotted) return;
    this.snapshotted = true;
    await this.source.snapshot();
  }

  observe(e: OdEventBody): void {
    this.usage.observe(e);
    if (e.type === "text.delta") {
      if (!e.parent) this.text.add(e.text); // separate messages come apart already (parts.ts)
    } else if (e.type === "tool.call") this.calls.set(e.id, { id: e.id, name: e.name, isError: false });
    else if (e.type === "tool.result") {
      const call = this.calls.get(e.id);
      if (call) call.isError = e.isError;
    } else if (e.type === "error") this.error = runError(this.error, e);
    else if (e.type === "raw" && e.stream === "stdout") this.raw = `${this.raw}${e.line}\n`.slice(-RAW_TAIL_BYTES);
    else if (e.type === "run.started") this.attemptStarted();
  }

  /**
   * This machine's picture of the folder, taken as the first attempt's agent is about to be spawned
   * (`onLaunch`): taken once it was spawned, an agent quick to write could change a file first, and
   * that change was never seen (a loaded machine did so to summary.test's fake agent).
   */
  launching(): void {
    if (this.snapshotted || !this.source) return;
    this.snapshotted = true;
    void this.source.snapshot();
  }

  /** A retried run is summed up by its last attempt (usage aside: every attempt was paid for). */
  private attemptStarted(): void {
    this.text = new TextJoin();
    this.error = undefined;
    this.raw = "";
    this.started = true;
  }

  async result(): Promise<BodyOf<"run.result">> {
    // Not asked for, or the agent never started: nothing to tell (an early picture is let go).
    const changes = this.source && this.started ? await this.source.changes() : undefined;
    if (!this.started) await this.source?.dispose?.();
    return {
      type: "run.result",
      text: this.text.toString(),
      toolCalls: [...this.calls.values()],
      files: changes?.files ?? [],
      diff: changes?.diff,
      errorCode: this.error?.code,
      errorMessage: this.error?.message,
      rawTail: this.raw,
      usage: this.usage.totals(),
      note: changes?.note,
    };
  }
}
