/** The run log on a disk that fails: storage errors, not bugs; nothing thrown at a timer; nothing lost for readers. */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { OdError } from "../../../src/core/contract/errors.ts";
import type { OdEvent } from "../../../src/core/contract/events.ts";
import { probeStorage, type WriteFn } from "../../../src/core/store/fault.ts";
import type { LogCursor, LoggedEvent } from "../../../src/core/store/log-read.ts";
import { RunLog } from "../../../src/core/store/run-log.ts";
import { tmpdir } from "../../helpers.ts";

const delta = (seq: number, text = `t${seq}`): OdEvent => ({ type: "text.delta", runId: "r1", seq, ts: 1, id: "m1", text });

const enospc = () => Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", syscall: "write" });

/** A disk that fills up when told to; a write may first take part of its bytes, as a real one can. */
function disk() {
  const state = { full: false, partial: 0 };
  const write: WriteFn = (fd, bytes, offset) => {
    if (state.partial) {
      const n = writeSync(fd, bytes, offset, Math.min(state.partial, bytes.length - offset));
      state.partial = 0;
      return n;
    }
    if (state.full) throw enospc();
    return writeSync(fd, bytes, offset);
  };
  return { state, write };
}

function drain(read: (c: LogCursor, maxBytes: number) => { events: LoggedEvent[]; cursor: LogCursor }, from: LogCursor = { seq: -1 }) {
  const got: LoggedEvent[] = [];
  let cursor = from;
  for (let i = 0; i < 10_000; i++) {
    const batch = read(cursor, 4096);
    if (!batch.events.length) break;
    got.push(...batch.events);
    cursor = batch.cursor;
  }
  return got.map((e) => e.seq);
}

describe("a log on a failing disk", () => {
  test("a failed write fails the writer once, with STORAGE; the file keeps its whole lines, readers get every event from the file and memory", async () => {
    await using tmp = tmpdir();
    const { state, write } = disk();
    const log = new RunLog(tmp.path, { write });
    log.create("r1", {});
    const failures: OdError[] = [];
    const w = log.writer("r1", (err) => failures.push(err));
    for (let i = 0; i < 256; i++) w.append(delta(i)); // one batch written
    state.partial = 100; // the next write takes 100 bytes, then the disk is full
    state.full = true;
    for (let i = 256; i < 300; i++) expect(() => w.append(delta(i))).not.toThrow();
    expect(() => w.flush()).not.toThrow();
    w.append(delta(300)); // after the failure: kept in memory
    w.flush();
    expect(failures.map((e) => [e.code, e.retryable])).toEqual([["STORAGE", false]]);
    expect(failures[0]!.message).toContain("ENOSPC");
    expect(failures[0]!.hint).toContain("full");
    expect(w.failed?.code).toBe("STORAGE");
    // The torn 100 bytes were taken back: the file is 256 whole lines.
    const text = readFileSync(join(tmp.path, "r1", "events.jsonl"), "utf8");
    expect(text.endsWith("\n")).toBe(true);
    expect(text.split("\n").length - 1).toBe(256);
    const all = [...Array(301).keys()];
    expect(drain((c, m) => w.read(c, m))).toEqual(all);
    expect(drain((c, m) => w.read(c, m), { seq: 250 })).toEqual(all.slice(251));
    expect(drain((c, m) => w.read(c, m), { seq: 280 })).toEqual(all.slice(281));
    w.close();
    expect(drain((c, m) => w.read(c, m))).toEqual(all); // the writer's memory outlives its file descriptor
  });

  test("a batch written by its timer that fails is told to onFail, not thrown at the event loop", async () => {
    await using tmp = tmpdir();
    const { state, write } = disk();
    const log = new RunLog(tmp.path, { write });
    log.create("r1", {});
    state.full = true;
    const failed = Promise.withResolvers<OdError>();
    const w = log.writer("r1", failed.resolve);
    w.append(delta(0)); // flushed 25 ms later, by a timer
    expect((await failed.promise).code).toBe("STORAGE");
    expect(drain((c, m) => w.read(c, m))).toEqual([0]);
    w.close();
  });

  test("a real full disk: events.jsonl on /dev/full (ENOSPC on every write)", async () => {
    await using tmp = tmpdir();
    const log = new RunLog(tmp.path);
    log.create("r1", {});
    symlinkSync("/dev/full", join(tmp.path, "r1", "events.jsonl"));
    const failures: OdError[] = [];
    const w = log.writer("r1", (err) => failures.push(err));
    w.append(delta(0));
    w.append({
      ...delta(1),
      type: "run.finished",
      status: "failed",
      exitCode: null,
      signal: null,
      durationMs: 1,
      resumable: false,
    } as OdEvent);
    expect(failures.map((e) => e.code)).toEqual(["STORAGE"]);
    expect(failures[0]!.message).toMatch(/ENOSPC|no space/i);
    expect(drain((c, m) => w.read(c, m))).toEqual([0, 1]);
    w.close();
  });

  test("a run that cannot be created, and a probe of a full disk, are STORAGE errors", async () => {
    await using tmp = tmpdir();
    writeFileSync(join(tmp.path, "file"), "");
    // Nothing is written until a run is recorded: the run's record is what fails.
    expect(() => new RunLog(join(tmp.path, "file", "runs")).create("r1", {})).toThrow(expect.objectContaining({ code: "STORAGE" }));
    const { state, write } = disk();
    const log = new RunLog(join(tmp.path, "runs"), { write });
    mkdirSync(join(tmp.path, "runs"));
    writeFileSync(join(tmp.path, "runs", "r1"), ""); // a file where the run's directory goes
    expect(() => log.create("r1", {})).toThrow(expect.objectContaining({ code: "STORAGE" }));
    expect(() => log.probe()).not.toThrow();
    state.full = true;
    expect(() => log.probe()).toThrow(expect.objectContaining({ code: "STORAGE", message: expect.stringContaining("ENOSPC") }));
    expect(log.list()).toEqual([]); // the probe leaves nothing behind
    // A disk with too little room left is still full, whatever a small write says.
    expect(() => probeStorage(tmp.path, { minFree: Number.MAX_SAFE_INTEGER })).toThrow(
      expect.objectContaining({ code: "STORAGE", message: expect.stringContaining("KiB free") }),
    );
  });
});
