import { describe, expect, test } from "bun:test";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { OdEvent } from "../../../src/core/contract/events.ts";
import { type LogCursor, type LoggedEvent, logEnds } from "../../../src/core/store/log-read.ts";
import { RunLog } from "../../../src/core/store/run-log.ts";
import { tmpdir } from "../../helpers.ts";

const delta = (seq: number, text = `t${seq} é😀`): OdEvent => ({ type: "text.delta", runId: "r1", seq, ts: 1, id: "m1", text });
const finished = (seq: number): OdEvent => ({
  type: "run.finished",
  runId: "r1",
  seq,
  ts: 1,
  status: "succeeded",
  exitCode: 0,
  signal: null,
  durationMs: 1,
  resumable: false,
});

/** Reads everything after `from` in steps of `maxBytes`, the way an SSE client does. */
function drain(
  read: (c: LogCursor, maxBytes: number) => { events: LoggedEvent[]; cursor: LogCursor },
  maxBytes: number,
  from: LogCursor = { seq: -1 },
) {
  const got: LoggedEvent[] = [];
  let cursor = from;
  for (let i = 0; i < 10_000; i++) {
    const batch = read(cursor, maxBytes);
    if (!batch.events.length) break;
    got.push(...batch.events);
    cursor = batch.cursor;
  }
  return { got, cursor };
}

describe("run log", () => {
  test("a live log is read whole by a reader behind it (from the file) and at its tail (from memory)", async () => {
    await using tmp = tmpdir();
    const log = new RunLog(tmp.path);
    log.create("r1", {});
    const w = log.writer("r1");
    for (let i = 0; i < 600; i++) w.append(delta(i)); // two batches of 256 written, 88 in memory
    const path = join(tmp.path, "r1", "events.jsonl");
    expect(readFileSync(path, "utf8").split("\n").length - 1).toBe(512);
    for (const maxBytes of [1, 100, 4096, 1 << 20]) {
      const { got } = drain((c, m) => w.read(c, m), maxBytes);
      expect(got.map((e) => e.seq)).toEqual([...Array(600).keys()]);
      expect(JSON.parse(got[599]!.json)).toEqual(delta(599));
    }
    // A reader at the tail learns where its last event will sit in the file, so once the batch is written it reads on from there.
    const tail = w.read({ seq: 579 }, 1 << 20).cursor;
    expect(tail.seq).toBe(599);
    for (let i = 600; i < 768; i++) w.append(delta(i)); // the batch with 512..599 is written
    expect(readFileSync(path).subarray(0, tail.offset).toString().split("\n").length - 1).toBe(600);
    expect(drain((c, m) => w.read(c, m), 4096, tail).got.map((e) => e.seq)).toEqual([...Array(168).keys()].map((i) => 600 + i));
    for (let i = 0; i < 168; i++) w.append(delta(768 + i));
    // A reader that knows only a seq (a reconnect) starts from it, in the file or in memory.
    for (const after of [0, 255, 256, 300, 511, 512, 598, 934])
      expect(drain((c, m) => w.read(c, m), 4096, { seq: after }).got[0]?.seq).toBe(after + 1);
    w.append(finished(936));
    w.close();
    expect(
      drain((c, m) => log.readAfter("r1", c, m), 4096)
        .got.map((e) => e.type)
        .at(-1),
    ).toBe("run.finished");
    // Once the run is over, a reader that knows only its seq reads past every line it has, however many.
    expect(drain((c, m) => log.readAfter("r1", c, m), 4096, { seq: 934 }).got.map((e) => e.seq)).toEqual([935, 936]);
    expect(log.read("r1")).toHaveLength(937);
  });

  test("a line longer than one read comes whole; a torn last line is skipped", async () => {
    await using tmp = tmpdir();
    const log = new RunLog(tmp.path);
    log.create("r1", {});
    const w = log.writer("r1");
    w.append(delta(0));
    w.append(delta(1, "x".repeat(300_000)));
    w.append(delta(2));
    w.close();
    appendFileSync(join(tmp.path, "r1", "events.jsonl"), '{"type":"text.delta","runId":"r1","se');
    const { got, cursor } = drain((c, m) => log.readAfter("r1", c, m), 1024);
    expect(got.map((e) => [e.seq, e.json.length > 300_000])).toEqual([
      [0, false],
      [1, true],
      [2, false],
    ]);
    // The torn line is finished later (recovery seals it): the reader goes on from where it stopped.
    appendFileSync(join(tmp.path, "r1", "events.jsonl"), `\n${JSON.stringify(finished(3))}\n`);
    expect(drain((c, m) => log.readAfter("r1", c, m), 1024, cursor).got.map((e) => e.seq)).toEqual([3]);
  });

  test("unknown runs and empty logs read as nothing", async () => {
    await using tmp = tmpdir();
    const log = new RunLog(tmp.path);
    expect(log.readAfter("nope", { seq: -1 }, 1024).events).toEqual([]);
    log.create("r1", {});
    const w = log.writer("r1");
    expect(w.read({ seq: -1 }, 1024).events).toEqual([]);
    w.close();
    expect(log.readAfter("r1", { seq: -1 }, 1024).events).toEqual([]);
  });
});

describe("logEnds", () => {
  const cases: Array<[string, string, { first?: string; last?: string }]> = [
    ["empty", "", {}],
    ["one line", "a\n", { first: "a", last: "a" }],
    ["first and last", "a\nb\nc\n", { first: "a", last: "c" }],
    ["a torn last line is skipped", "a\nb\nc", { first: "a", last: "b" }],
    ["no whole line", "abc", {}],
    ["a last line longer than the window is not guessed at", `a\n${"x".repeat(40)}\n`, { first: "a" }],
    ["a first line longer than the window is not guessed at", `${"x".repeat(40)}\nb\n`, {}],
    [
      "the last window starts inside an earlier line",
      `${"a".repeat(20)}\n${"b".repeat(10)}\n${"c".repeat(5)}\n`,
      { first: "a".repeat(20), last: "c".repeat(5) },
    ],
  ];
  for (const [name, text, want] of cases)
    test(name, async () => {
      await using tmp = tmpdir();
      const path = join(tmp.path, "events.jsonl");
      writeFileSync(path, text);
      expect(logEnds(path, 32)).toEqual(want);
    });

  test("a missing file has no ends", () => expect(logEnds("/nonexistent/events.jsonl")).toEqual({}));
});

describe("run summaries", () => {
  test("a finished run is summed up from its log's two ends, as from the whole log; an unfinished one from the whole log", async () => {
    await using tmp = tmpdir();
    const log = new RunLog(tmp.path);
    log.create("r1", { agent: "claude", prompt: "hi", cwd: "/w" });
    const w = log.writer("r1");
    w.append({ type: "run.started", runId: "r1", seq: 0, ts: 5, agent: "claude", bin: "claude", argv: [], cwd: "/w", mode: "edit" });
    w.append({ type: "session", runId: "r1", seq: 1, ts: 6, sessionId: "s-1" });
    w.append(delta(2, "x".repeat(300_000))); // far more than either end's window
    w.flush();
    expect(log.summary("r1")).toEqual({
      runId: "r1",
      agent: "claude",
      prompt: "hi",
      cwd: "/w",
      status: "running",
      startedAt: 5,
      sessionId: "s-1",
      mode: "edit",
    });
    w.append({
      type: "run.finished",
      runId: "r1",
      seq: 3,
      ts: 9,
      status: "failed",
      exitCode: 1,
      signal: null,
      durationMs: 4,
      sessionId: "s-1",
      resumable: true,
    });
    w.close();
    expect(log.summary("r1")).toEqual({
      runId: "r1",
      agent: "claude",
      prompt: "hi",
      cwd: "/w",
      status: "failed",
      startedAt: 5,
      sessionId: "s-1",
      mode: "edit",
      durationMs: 4,
      resumable: true,
    });
    // A crash's torn line after run.finished changes nothing.
    appendFileSync(join(tmp.path, "r1", "events.jsonl"), '{"type":"text.de');
    expect(log.summary("r1").status).toBe("failed");
  });
});
