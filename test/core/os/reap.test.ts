import { describe, expect, spyOn, test } from "bun:test";
import * as fs from "node:fs";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { findMarked, forksSoFar, reap, reapNow, runMark } from "../../../src/core/os/reap.ts";
import { alive, ROOT } from "../../helpers.ts";

/** `cmd` in a session of its own, `env` added to PATH. */
const start = (cmd: string[], env: Record<string, string>) =>
  Bun.spawn(cmd, { env: { PATH: process.env.PATH, ...env }, stdio: ["ignore", "ignore", "ignore"], detached: true });

/** The process's name (`/proc/<pid>/comm`), or "" once it is gone. */
const comm = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return "";
  }
};

/** Whether `check` held at some look within `ms` (not looked at again: a process mid-exec may hide its environment for a moment). */
const until = async (check: () => boolean, ms: number) => {
  for (const deadline = Date.now() + ms; ; await Bun.sleep(10)) {
    if (check()) return true;
    if (Date.now() >= deadline) return false;
  }
};

describe.skipIf(process.platform !== "linux")("reap by mark", () => {
  test("a mark matches whole entries, every one of them, and never od itself", async () => {
    const id = crypto.randomUUID();
    const both = start(["sleep", "1000"], { OD_RUN_ID: id, OD_OWNER: "me" });
    const otherOwner = start(["sleep", "1000"], { OD_RUN_ID: id, OD_OWNER: "someone" });
    const longer = start(["sleep", "1000"], { OD_RUN_ID: `${id}x`, OD_OWNER: "me" });
    const inValue = start(["sleep", "1000"], { NOT_IT: `OD_RUN_ID=${id}` });
    try {
      expect(findMarked([runMark(id, "me")])).toEqual([both.pid]);
      expect(findMarked([runMark(id)]).toSorted()).toEqual([both.pid, otherOwner.pid].toSorted());
      expect(findMarked([[`OD_OWNER=me`]]).toSorted()).toEqual([both.pid, longer.pid].toSorted());
      expect(findMarked([])).toEqual([]);
      // A process looking for its own mark does not find itself.
      const self = Bun.spawnSync(
        [
          process.execPath,
          "-e",
          `console.log(JSON.stringify(require(${JSON.stringify(join(ROOT, "src/core/os/reap.ts"))}).findMarked([["OD_RUN_ID=${id}"]])))`,
        ],
        { env: { ...process.env, OD_RUN_ID: id } },
      );
      expect(JSON.parse(self.stdout.toString()).toSorted()).toEqual([both.pid, otherOwner.pid].toSorted());
    } finally {
      for (const p of [both, otherOwner, longer, inValue]) p.kill("SIGKILL");
    }
  });

  test("reaps asked in the same turn share one walk of /proc, and each ends only what carries its own mark", async () => {
    const [a, b, c] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    const pa = start(["sleep", "1000"], { OD_RUN_ID: a });
    const pb = start(["sleep", "1000"], { OD_RUN_ID: b });
    const pc = start(["sleep", "1000"], { OD_RUN_ID: c });
    try {
      expect(await until(() => [a, b, c].every((id) => findMarked([runMark(id)]).length === 1), 2000)).toBe(true);
      const walks = spyOn(fs, "readdirSync");
      try {
        expect(await Promise.all([reap([runMark(a)]), reap([runMark(b)]), reap([runMark(crypto.randomUUID())])])).toEqual([1, 1, 0]);
        // One walk answered the three first looks; each reap that found something looked once more to see it gone.
        expect(walks.mock.calls.filter(([dir]) => dir === "/proc").length).toBeLessThanOrEqual(3);
      } finally {
        walks.mockRestore();
      }
      expect([pa.pid, pb.pid].filter(alive)).toEqual([]);
      expect(alive(pc.pid)).toBe(true);
    } finally {
      for (const p of [pa, pb, pc]) p.kill("SIGKILL");
    }
  });

  test("a reap from an agent looks only at processes made since it, unless pid numbers may have gone round meanwhile", async () => {
    const id = crypto.randomUUID();
    const older = start(["sleep", "1000"], { OD_RUN_ID: id });
    const forks = forksSoFar()!;
    const agent = start(["sleep", "1000"], { OD_RUN_ID: id });
    try {
      expect(forksSoFar()!).toBeGreaterThan(forks);
      expect(await until(() => findMarked([runMark(id)]).length === 2, 2000)).toBe(true);
      expect(findMarked([runMark(id)], { pid: agent.pid, forks })).toEqual([agent.pid]);
      // As many processes made since as pid numbers above the agent's: a wrap is possible, every process is looked at.
      const pidMax = Number(readFileSync("/proc/sys/kernel/pid_max", "utf8"));
      expect(findMarked([runMark(id)], { pid: agent.pid, forks: forks - pidMax }).toSorted()).toEqual([older.pid, agent.pid].toSorted());
    } finally {
      for (const p of [older, agent]) p.kill("SIGKILL");
    }
  });

  test("a process whose environment is larger than the read buffer is still found by its mark at the end", async () => {
    const id = crypto.randomUUID();
    const big = start(["sleep", "1000"], { BIG: "x".repeat(100_000), OD_RUN_ID: id });
    try {
      expect(await until(() => findMarked([runMark(id)]).includes(big.pid), 2000)).toBe(true);
    } finally {
      big.kill("SIGKILL");
    }
  });

  test("reap ends what ignores SIGTERM with SIGKILL, and children forked meanwhile, within its waits", async () => {
    const id = crypto.randomUUID();
    // A shell that ignores SIGTERM and keeps starting children (each carries the mark too).
    const stubborn = start(["sh", "-c", "trap '' TERM; while :; do sleep 1000 & wait; done"], { OD_RUN_ID: id });
    const polite = start(["sleep", "1000"], { OD_RUN_ID: id });
    // Two sleeps seen by name: the loop's child has finished its exec (mid-exec, a process hides its
    // environment for a moment, and the reap's first look counted 2 in a full-suite run).
    const sleeps = () => findMarked([runMark(id)]).filter((pid) => comm(pid) === "sleep").length;
    expect(await until(() => sleeps() === 2 && findMarked([runMark(id)]).length >= 3, 2000)).toBe(true);
    const started = performance.now();
    expect(await reap([runMark(id)], { termMs: 200, killMs: 1000 })).toBeGreaterThanOrEqual(3);
    expect(performance.now() - started).toBeLessThan(1500);
    expect(findMarked([runMark(id)])).toEqual([]);
    expect([stubborn.pid, polite.pid].filter(alive)).toEqual([]);
    expect(await stubborn.exited).not.toBe(0);
    // Nothing marked: nothing to wait for.
    const idle = performance.now();
    expect(await reap([runMark(id)])).toBe(0);
    expect(performance.now() - idle).toBeLessThan(200);
  });

  test("reapNow kills at once, for an exit that cannot wait", async () => {
    const id = crypto.randomUUID();
    const p = start(["sh", "-c", "trap '' TERM; sleep 1000"], { OD_RUN_ID: id });
    expect(await until(() => findMarked([runMark(id)]).length === 2, 2000)).toBe(true);
    reapNow([runMark(id)]);
    expect(await p.exited).not.toBe(0);
    expect(await until(() => findMarked([runMark(id)]).length === 0, 1000)).toBe(true);
  });

  // In a process of its own: every test file shares this one, and what they spawn is noted in the same module.
  test("a run reaped clean no longer needs od's exit to walk /proc for it; one whose waits ran out still does", () => {
    const probe = Bun.spawnSync([
      process.execPath,
      "-e",
      `const r = require(${JSON.stringify(join(ROOT, "src/core/os/reap.ts"))});
       const mark = r.runMark(crypto.randomUUID(), "me");
       const said = [];
       r.noteSpawned(mark);
       said.push(r.exitReapNeeded());
       const env = { PATH: process.env.PATH, OD_RUN_ID: mark[0].split("=")[1], OD_OWNER: "me" };
       const stubborn = Bun.spawn(["sh", "-c", "trap '' TERM; sleep 1000"], { env, stdio: ["ignore", "ignore", "ignore"], detached: true });
       while (r.findMarked([mark]).length < 2) Bun.sleepSync(10);
       said.push(r.reapSync([mark], { termMs: 0, killMs: 0 }), r.exitReapNeeded()); // no time to wait: both live on
       said.push(r.reapSync([mark], { termMs: 100, killMs: 1000 }), r.exitReapNeeded());
       console.log(JSON.stringify(said));`,
    ]);
    expect(probe.stderr.toString()).toBe("");
    expect(JSON.parse(probe.stdout.toString())).toEqual([true, 2, true, 2, false]);
  });

  test("an agent spawned without a run's mark keeps the exit's reap for good", () => {
    const probe = Bun.spawnSync([
      process.execPath,
      "-e",
      `const r = require(${JSON.stringify(join(ROOT, "src/core/os/reap.ts"))});
       r.noteSpawned(undefined); r.noteSpawned(r.runMark("x", "me"));
       r.reapSync([r.runMark("x", "me")]);
       console.log(r.exitReapNeeded());`,
    ]);
    expect(probe.stdout.toString().trim()).toBe("true");
  });
});
