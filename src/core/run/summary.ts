import type { BodyOf, OdEventBody } from "../events.ts";
import { changedFiles, fingerprint, gitDiff, MAX_FILES } from "../workspace/changes.ts";
import { UsageMeter } from "./usage.ts";

const RAW_TAIL_BYTES = 8 * 1024;

/** The final text run.result carries at most: past it the text is cut, and says so. */
export const MAX_RESULT_TEXT = 1024 * 1024;

/**
 * What goes between two parts of the answer (text.delta ids that differ: separate messages) after
 * `before`, the text so far or its tail: enough line breaks for a blank line, so "Let me check."
 * and "Done!" never read as "Let me check.Done!".
 */
export function partBreak(before: string): string {
  if (!before || before.endsWith("\n\n")) return "";
  return before.endsWith("\n") ? "\n" : "\n\n";
}

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
  /** The last two characters added, and the id of the part they belong to. */
  private tail = "";
  private part: string | undefined;

  constructor(private readonly max = MAX_RESULT_TEXT) {}

  /** A part's text: a part with another id than the last one starts a new paragraph. */
  addPart(id: string, s: string): void {
    if (!s) return;
    if (this.part !== undefined && id !== this.part) this.add(partBreak(this.tail));
    this.part = id;
    this.add(s);
  }

  add(s: string): void {
    if (this.cut || !s) return;
    this.tail = (this.tail + s).slice(-2);
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
  /** The working directory as the agent found it: taken when the first attempt starts (after any wait for a slot). */
  private before: Map<string, string> | undefined;
  private snapshotted = false;
  private text = new TextJoin();
  private readonly usage = new UsageMeter();
  private readonly calls = new Map<string, { id: string; name: string; isError: boolean }>();
  private error: BodyOf<"error"> | undefined;
  private raw = "";

  /**
   * `cwd` undefined: the changed files are not tracked (the caller has them another way, or did not ask).
   * `skip`: folders under it that are not the agent's work (od's own home, where the run log grows).
   */
  constructor(
    private readonly cwd: string | undefined,
    private readonly skip: string[] = [],
  ) {}

  observe(e: OdEventBody): void {
    this.usage.observe(e);
    if (e.type === "text.delta") {
      if (!e.parent) this.text.addPart(e.id, e.text);
    } else if (e.type === "tool.call") this.calls.set(e.id, { id: e.id, name: e.name, isError: false });
    else if (e.type === "tool.result") {
      const call = this.calls.get(e.id);
      if (call) call.isError = e.isError;
    } else if (e.type === "error") this.error ??= e;
    else if (e.type === "raw" && e.stream === "stdout") this.raw = `${this.raw}${e.line}\n`.slice(-RAW_TAIL_BYTES);
    else if (e.type === "run.started") this.attemptStarted();
  }

  /** A retried run is summed up by its last attempt (usage aside: every attempt was paid for). */
  private attemptStarted(): void {
    this.text = new TextJoin();
    this.error = undefined;
    this.raw = "";
    if (this.snapshotted || !this.cwd) return;
    this.snapshotted = true;
    this.before = fingerprint(this.cwd, this.skip);
  }

  async result(): Promise<BodyOf<"run.result">> {
    const { before, cwd } = this;
    const after = before && cwd ? fingerprint(cwd, this.skip) : undefined;
    const files = before && after ? changedFiles(before, after) : [];
    return {
      type: "run.result",
      text: this.text.toString(),
      toolCalls: [...this.calls.values()],
      files,
      // Deleted files too: git shows a deletion, and a rename as one (its old name is among the files).
      diff: cwd ? await gitDiff(cwd, files) : undefined,
      errorCode: this.error?.code,
      errorMessage: this.error?.message,
      rawTail: this.raw,
      usage: this.usage.totals(),
      note: this.note(after),
    };
  }

  private note(after: Map<string, string> | undefined): string | undefined {
    if (!this.cwd || !this.snapshotted) return undefined; // not asked for, or the agent never started
    if (this.before && after) return undefined;
    return `changes not tracked: the folder has over ${MAX_FILES} files, or could not be read`;
  }
}
