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
 * A run with its summary: every body passes through, and just before
 * run.finished comes one `run.result` — the final text, the tool calls, the
 * files changed in the working directory (with the git diff in a repository),
 * the first error, usage summed over turns, and a bounded tail of raw stdout.
 */
export async function* withSummary(bodies: AsyncIterable<OdEventBody>, cwd: string): AsyncGenerator<OdEventBody> {
  const before = fingerprint(cwd);
  const text = new TextJoin();
  const usage = new UsageMeter();
  const calls = new Map<string, { id: string; name: string; isError: boolean }>();
  let error: BodyOf<"error"> | undefined;
  let raw = "";
  for await (const e of bodies) {
    usage.observe(e);
    if (e.type === "text.delta" && !e.parent) text.add(e.text);
    else if (e.type === "tool.call") calls.set(e.id, { id: e.id, name: e.name, isError: false });
    else if (e.type === "tool.result" && calls.has(e.id)) calls.get(e.id)!.isError = e.isError;
    else if (e.type === "error") error ??= e;
    else if (e.type === "raw" && e.stream === "stdout") raw = `${raw}${e.line}\n`.slice(-RAW_TAIL_BYTES);
    if (e.type === "run.finished") {
      const after = fingerprint(cwd);
      const files = before && after ? changedFiles(before, after) : [];
      yield {
        type: "run.result",
        text: text.toString(),
        toolCalls: [...calls.values()],
        files,
        diff: await gitDiff(
          cwd,
          files.filter((f) => after?.has(f)),
        ),
        errorCode: error?.code,
        errorMessage: error?.message,
        rawTail: raw,
        usage: usage.totals(),
        note: before && after ? undefined : `changes not tracked: the folder has over ${MAX_FILES} files, or could not be read`,
      };
    }
    yield e;
  }
}
