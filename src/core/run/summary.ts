import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { EventOf, OdEvent } from "../events.ts";
import { DIFF, git, MAX_DIFF_BYTES, withoutFilters } from "../workspace/git.ts";

const MAX_FILES = 20_000;
const RAW_TAIL_BYTES = 8 * 1024;
const SKIP = new Set([".git", "node_modules"]);

/**
 * What each file under dir looks like on disk, size and modification time (bounded;
 * .git and node_modules left out): the check git's index makes. Contents are never
 * read, so a large tree costs one stat per file, not a read of every byte, at the
 * start and the end of every run. A file rewritten with the same bytes counts as changed.
 */
function fingerprint(dir: string): Map<string, string> | undefined {
  const out = new Map<string, string>();
  const walk = (rel: string): boolean => {
    for (const d of readdirSync(join(dir, rel), { withFileTypes: true })) {
      if (SKIP.has(d.name)) continue;
      const path = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) {
        if (!walk(path)) return false;
      } else if (d.isFile()) {
        if (out.size >= MAX_FILES) return false;
        try {
          const st = statSync(join(dir, path));
          out.set(path, `${st.size}:${st.mtimeMs}`);
        } catch {}
      }
    }
    return true;
  };
  try {
    return walk("") ? out : undefined;
  } catch {
    return undefined;
  }
}

/** The diff of `files` in a repository; undefined outside one, or with no git installed. The agent may have written the repository's config: no command it names runs. */
async function gitDiff(cwd: string, files: string[]): Promise<string | undefined> {
  if (!files.length) return undefined;
  const noFilters = await withoutFilters(cwd, files);
  if (!noFilters) return undefined;
  const r = await git([...noFilters, ...DIFF, "--", ...files], cwd, { maxBytes: MAX_DIFF_BYTES });
  return r.code === 0 && r.out ? r.out : undefined;
}

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
 * A run with its summary: every event passes through, and just before
 * run.finished comes one `run.result` — the final text, the tool calls, the
 * files changed in the working directory (with the git diff in a repository),
 * the error, and a bounded tail of raw stdout.
 */
export async function* withResult(events: AsyncIterable<OdEvent>, cwd: string): AsyncGenerator<OdEvent> {
  const before = fingerprint(cwd);
  const text = new TextJoin();
  const calls = new Map<string, { id: string; name: string; isError: boolean }>();
  let error: EventOf<"error"> | undefined;
  let raw = "";
  for await (const e of events) {
    if (e.type === "text.delta" && !e.parent) text.add(e.text);
    else if (e.type === "tool.call") calls.set(e.id, { id: e.id, name: e.name, isError: false });
    else if (e.type === "tool.result" && calls.has(e.id)) calls.get(e.id)!.isError = e.isError;
    else if (e.type === "error") error ??= e;
    else if (e.type === "raw" && e.stream === "stdout") raw = `${raw}${e.line}\n`.slice(-RAW_TAIL_BYTES);
    if (e.type === "run.finished") {
      const after = fingerprint(cwd);
      const files =
        before && after ? [...new Set([...before.keys(), ...after.keys()])].filter((f) => before.get(f) !== after.get(f)).sort() : [];
      yield {
        type: "run.result",
        runId: e.runId,
        seq: e.seq,
        ts: Date.now(),
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
        note: before && after ? undefined : `changes not tracked: the folder has over ${MAX_FILES} files, or could not be read`,
      };
      yield { ...e, seq: e.seq + 1 };
      continue;
    }
    yield e;
  }
}
