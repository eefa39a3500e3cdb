import type { BodyOf, OdEventBody } from "../events.ts";
import { changedFiles, fingerprint, gitDiff, MAX_FILES } from "../workspace/changes.ts";
import { UsageMeter } from "./usage.ts";

const RAW_TAIL_BYTES = 8 * 1024;

/**
 * Joins many small strings, a few hundred at a time. `s += delta` over a long
 * answer keeps every delta alive as a rope node (10k deltas: about 80 bytes
 * each, held until the run ends); this holds the same text flat.
 */
class TextJoin {
  private blocks: string[] = [];
  private pending: string[] = [];

  add(s: string): void {
    this.pending.push(s);
    if (this.pending.length >= 256) {
      this.blocks.push(this.pending.join(""));
      this.pending = [];
    }
  }

  toString(): string {
    return this.blocks.join("") + this.pending.join("");
  }
}

/**
 * What a run did, gathered as its bodies pass: the final text, the tool calls,
 * the first error, usage summed over turns, a bounded tail of raw stdout; and,
 * when it ends, the files changed in the working directory (with the git diff
 * in a repository). The pipeline emits it as `run.result`, just before run.finished.
 */
export class Summary {
  private readonly before: Map<string, string> | undefined;
  private readonly text = new TextJoin();
  private readonly usage = new UsageMeter();
  private readonly calls = new Map<string, { id: string; name: string; isError: boolean }>();
  private error: BodyOf<"error"> | undefined;
  private raw = "";

  constructor(private readonly cwd: string) {
    this.before = fingerprint(cwd);
  }

  observe(e: OdEventBody): void {
    this.usage.observe(e);
    if (e.type === "text.delta") {
      if (!e.parent) this.text.add(e.text);
    } else if (e.type === "tool.call") this.calls.set(e.id, { id: e.id, name: e.name, isError: false });
    else if (e.type === "tool.result") {
      const call = this.calls.get(e.id);
      if (call) call.isError = e.isError;
    } else if (e.type === "error") this.error ??= e;
    else if (e.type === "raw" && e.stream === "stdout") this.raw = `${this.raw}${e.line}\n`.slice(-RAW_TAIL_BYTES);
  }

  async result(): Promise<BodyOf<"run.result">> {
    const { before, cwd } = this;
    const after = fingerprint(cwd);
    const files = before && after ? changedFiles(before, after) : [];
    return {
      type: "run.result",
      text: this.text.toString(),
      toolCalls: [...this.calls.values()],
      files,
      diff: await gitDiff(
        cwd,
        files.filter((f) => after?.has(f)),
      ),
      errorCode: this.error?.code,
      errorMessage: this.error?.message,
      rawTail: this.raw,
      usage: this.usage.totals(),
      note: before && after ? undefined : `changes not tracked: the folder has over ${MAX_FILES} files, or could not be read`,
    };
  }
}
