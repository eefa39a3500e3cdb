/** The run store at its edges: a server shutting down, and a log that cannot be written. */
import { describe, expect, test } from "bun:test";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import type { OdError } from "../../src/core/contract/errors.ts";
import type { OdEvent } from "../../src/core/contract/events.ts";
import { Slots } from "../../src/core/os/slots.ts";
import { Runs } from "../../src/core/runs/service.ts";
import type { LogWriter } from "../../src/core/store/log-writer.ts";
import { RunLog } from "../../src/core/store/run-log.ts";
import { alive, installFake, tmpdir } from "../helpers.ts";
import { registry, testApp } from "./support.ts";

describe("run store", () => {
  test("once shutdown has begun no run starts (503), and the runs it cancels leave nothing behind", async () => {
    await using tmp = tmpdir();
    const { request, runs, fake } = testApp(tmp.path, [
      { spawn: ["sleep", "1000"] },
      { stdout: { t: "text", v: "working" } },
      { hang: true },
    ]);
    const { runId } = await runs.start({ agent: "fake", prompt: "hi", cwd: tmp.path }, { origin: "serve" });
    while (!fake.pids().length) await Bun.sleep(10);
    const stopping = runs.shutdown();
    const late = await request("/api/runs", { method: "POST", json: { agent: "fake", prompt: "too late", cwd: tmp.path } });
    expect(late.status).toBe(503);
    expect(((await late.json()) as { error: { code: string } }).error.code).toBe("CANCELLED");
    await stopping;
    expect(runs.summary(runId).status).toBe("cancelled");
    expect(fake.pids().map(alive)).toEqual([false]);
  });

  test("a log on a full disk (events.jsonl on /dev/full) ends the run for its readers, with its end kept in memory, and the failure is told", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-agent", [{ stdout: { t: "text", v: "one" } }, { hang: true }]);
    /** Every run's log is /dev/full, where each write fails with ENOSPC. */
    class FullDisk extends RunLog {
      override writer(runId: string, onFail?: (err: OdError) => void): LogWriter {
        symlinkSync("/dev/full", join(this.dir, runId, "events.jsonl"));
        return super.writer(runId, onFail);
      }
    }
    const warnings: string[] = [];
    const runs = new Runs({
      registry,
      log: new FullDisk(join(tmp.path, "runs")),
      slots: new Slots(2),
      env: fake.env,
      warn: (m) => warnings.push(m),
    });
    const { runId } = await runs.start({ agent: "fake", prompt: "hi", cwd: tmp.path }, { origin: "serve" });
    await runs.waitFor(runId);
    const read = runs.read(runId, { seq: -1 }, 1 << 20);
    expect(read.live).toBe(false);
    const events = read.events.map((e) => JSON.parse(e.json) as OdEvent);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
    expect(events.filter((e) => e.type === "run.finished")).toEqual([expect.objectContaining({ status: "failed" })]);
    expect(events.at(-1)?.type).toBe("run.finished");
    expect(events.filter((e) => e.type === "error")).toEqual([expect.objectContaining({ code: "STORAGE" })]);
    expect(runs.summary(runId).status).toBe("failed");
    expect(warnings).toEqual([expect.stringMatching(new RegExp(`^run ${runId}: Cannot write the run log .*ENOSPC`))]);
    // The STORAGE error and the run.finished came from the run's own pipeline: od built no ending of its own.
  });
});
