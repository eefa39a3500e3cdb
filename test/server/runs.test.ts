/** The run store at its edges: a server shutting down, and a log that cannot be written. */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { OdEvent } from "../../src/core/events.ts";
import { Slots } from "../../src/core/run/slots.ts";
import type { LogWriter } from "../../src/core/store/log-writer.ts";
import { RunLog } from "../../src/core/store/run-log.ts";
import { RunStore } from "../../src/server/runs.ts";
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
    const runId = runs.start({ agent: "fake", prompt: "hi", cwd: tmp.path });
    while (!fake.pids().length) await Bun.sleep(10);
    const stopping = runs.shutdown();
    const late = await request("/api/runs", { method: "POST", json: { agent: "fake", prompt: "too late", cwd: tmp.path } });
    expect(late.status).toBe(503);
    expect(((await late.json()) as { error: { code: string } }).error.code).toBe("CANCELLED");
    await stopping;
    expect(runs.summary(runId).status).toBe("cancelled");
    expect(fake.pids().map(alive)).toEqual([false]);
  });

  test("a log that cannot be written ends the run for its readers, and the failure is told", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-agent", [{ stdout: { t: "text", v: "one" } }, { stdout: { t: "text", v: "two" } }]);
    /** A disk that fills up after the first event. */
    class FullDisk extends RunLog {
      override writer(runId: string): LogWriter {
        const writer = super.writer(runId);
        let written = 0;
        const append = writer.append.bind(writer);
        writer.append = (event: OdEvent) => {
          if (++written > 1) throw new Error("ENOSPC: no space left on device, write");
          append(event);
        };
        return writer;
      }
    }
    const warnings: string[] = [];
    const runs = new RunStore({
      registry,
      log: new FullDisk(join(tmp.path, "runs")),
      slots: new Slots(2),
      env: fake.env,
      warn: (m) => warnings.push(m),
    });
    const runId = runs.start({ agent: "fake", prompt: "hi", cwd: tmp.path });
    await runs.waitFor(runId);
    expect(runs.read(runId, { seq: -1 }, 1 << 20).live).toBe(false);
    expect(warnings).toEqual([`run ${runId} could not be logged: ENOSPC: no space left on device, write`]);
  });
});
