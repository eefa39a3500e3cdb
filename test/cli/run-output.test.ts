/**
 * `od run --json`'s stdout (compiled od, a fake Claude replaying a long stream): written in batches
 * (cli/batched.ts), yet every event arrives, in order, ending with its one run.finished; a reader
 * gone ends the output quietly; a stdout that cannot be written is od's error (exit 74).
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { claudeStreamFile, fakeBin, isolatedEnv } from "../bench/fakes.ts";
import { DIST_OD, tmpdir } from "../helpers.ts";

setDefaultTimeout(20_000);

const DELTAS = 5000;

/** A fake claude that prints a stream of DELTAS text deltas ("#<i>;") at once; od's env for it. */
function fakeClaude(dir: string) {
  const stream = claudeStreamFile(join(dir, "stream.jsonl"), DELTAS);
  fakeBin(join(dir, "bin"), "claude", `case "$1" in --version) echo "2.1.0 (Claude Code)"; exit 0;; esac\nexec cat "${stream}"`);
  return isolatedEnv(dir);
}

/** `od run --json` under bash, its stdout sent on by `redirect` (`| cmd`, `>file`); prints od's exit code last. */
function odRun(dir: string, env: Record<string, string>, redirect: string) {
  const script = `set -o pipefail; "$0" run --json --agent claude --cwd "$1" hi ${redirect}; echo "exit $?"`;
  const p = Bun.spawnSync(["/bin/bash", "-c", script, DIST_OD, dir], { env, stdin: "ignore" });
  return { out: p.stdout.toString(), err: p.stderr.toString() };
}

describe("od run --json's output", () => {
  test("every event of a burst arrives, in order, each a whole line, then exactly one run.finished", async () => {
    await using tmp = tmpdir("od-run-output-");
    const env = fakeClaude(tmp.path);
    const r = odRun(tmp.path, env, "| cat");
    const lines = r.out.trimEnd().split("\n");
    expect(lines.pop()).toBe("exit 0");
    const events = lines.map((l) => JSON.parse(l) as { type: string; seq: number; text?: string });
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
    const deltas = events.filter((e) => e.type === "text.delta").map((e) => e.text ?? "");
    expect(deltas.join("")).toBe(Array.from({ length: DELTAS }, (_, i) => `#${i};`).join(""));
    expect(events.filter((e) => e.type === "run.finished")).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: "run.finished", status: "succeeded" });
  });

  test("a reader that went away (| head) ends the output quietly: exit 0, no error", async () => {
    await using tmp = tmpdir("od-run-output-");
    const r = odRun(tmp.path, fakeClaude(tmp.path), "| head -c 100 >/dev/null");
    expect(r.out.trim()).toBe("exit 0");
    expect(r.err).not.toMatch(/uncaught|unhandled|EPIPE|Could not write/);
  });

  test("a stdout that cannot be written (a full disk) is od's error, said once: exit 74, never exit 0", async () => {
    await using tmp = tmpdir("od-run-output-");
    const r = odRun(tmp.path, fakeClaude(tmp.path), ">/dev/full");
    expect(r.out.trim()).toBe("exit 74");
    expect(r.err.match(/Could not write to stdout/g)).toHaveLength(1);
    expect(r.err).not.toMatch(/uncaught|unhandled/);
  });
});
