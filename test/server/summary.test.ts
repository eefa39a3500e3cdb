/** Asking about runs costs the server nothing however long their logs: summaries come from memory, not from re-reading the log. */
import { describe, expect, test } from "bun:test";
import { statSync } from "node:fs";
import { join } from "node:path";
import type { OdError } from "../../src/core/contract/errors.ts";
import type { OdEvent } from "../../src/core/contract/events.ts";
import { Slots } from "../../src/core/os/slots.ts";
import { Runs } from "../../src/core/runs/service.ts";
import type { LogWriter } from "../../src/core/store/log-writer.ts";
import { RunLog, type RunSummary } from "../../src/core/store/run-log.ts";
import { tmpdir } from "../helpers.ts";
import { readFrames, registry, testApp } from "./support.ts";

/** A run log that counts whole-log reads and log-based summaries, and lends a test the live runs' writers. */
class CountingLog extends RunLog {
  reads = 0;
  summaries = 0;
  readonly writers = new Map<string, LogWriter>();
  override read(runId: string): OdEvent[] {
    this.reads++;
    return super.read(runId);
  }
  override summary(runId: string): RunSummary {
    this.summaries++;
    return super.summary(runId);
  }
  override writer(runId: string, onFail?: (err: OdError) => void): LogWriter {
    const writer = super.writer(runId, onFail);
    this.writers.set(runId, writer);
    return writer;
  }
}

describe("run summaries", () => {
  test("polling a live run with a 50 MB log, and the run list, never reads the log; a finished run's summary is read once, then cached", async () => {
    await using tmp = tmpdir();
    const log = new CountingLog(join(tmp.path, "runs"));
    const { request, runs, fake } = testApp(
      tmp.path,
      [{ stdout: { t: "session", v: "s-1" } }, { stdout: { t: "text", v: "go" } }, { hang: true }],
      { log },
    );
    const runId = (
      (await (await request("/api/runs", { method: "POST", json: { agent: "fake", prompt: "hi", cwd: tmp.path } })).json()) as {
        runId: string;
      }
    ).runId;
    const frames = await readFrames((await request(`/api/runs/${runId}/events`)).body!, (f) => f.event === "text.delta");
    const started = JSON.parse(frames.find((f) => f.event === "run.started")!.data!) as OdEvent;
    // 50 MB more of the run's events, through its log writer (the agent would take seconds through its pipe).
    const text = "x".repeat(64 * 1024);
    const writer = log.writers.get(runId)!;
    for (let i = 0; i < 800; i++) writer.append({ type: "text.delta", runId, seq: 1000 + i, ts: started.ts, id: "t", text });
    expect(statSync(join(tmp.path, "runs", runId, "events.jsonl")).size).toBeGreaterThan(50 * 1024 * 1024);
    for (let i = 0; i < 20; i++) {
      const summary = (await (await request(`/api/runs/${runId}`)).json()) as RunSummary;
      expect(summary).toEqual({
        runId,
        agent: "fake",
        prompt: "hi",
        cwd: tmp.path,
        status: "running",
        startedAt: started.ts,
        sessionId: "s-1",
        mode: "edit",
        origin: "serve",
      });
      const { runs: list } = (await (await request("/api/runs")).json()) as { runs: RunSummary[] };
      expect(list.map((r) => [r.runId, r.status])).toEqual([[runId, "running"]]);
    }
    expect([log.reads, log.summaries]).toEqual([0, 0]);
    await request(`/api/runs/${runId}/cancel`, { method: "POST", json: {} });
    await runs.waitFor(runId);
    const ended = runs.summary(runId);
    expect(ended.status).toBe("cancelled");
    expect((await (await request(`/api/runs/${runId}`)).json()) as RunSummary).toEqual(ended);
    expect([log.reads, log.summaries]).toEqual([0, 0]);
    // What memory said is what the log says.
    expect(new RunLog(join(tmp.path, "runs")).summary(runId)).toEqual(ended);
    // A server that finds the run in its log reads its summary from the log's ends once, then from its cache.
    const later = new CountingLog(join(tmp.path, "runs"));
    const store = new Runs({ registry, log: later, slots: new Slots(1), env: fake.env });
    for (let i = 0; i < 5; i++) expect(store.list()).toEqual([{ kind: "run", ...ended }]);
    expect([later.reads, later.summaries]).toEqual([0, 1]);
  });
});
