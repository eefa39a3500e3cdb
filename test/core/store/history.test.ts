/** Runs recorded by any surface (recordRun), listed as history, and left alone by a server's recovery while their od lives. */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createStamper, type OdEvent } from "../../../src/core/contract/events.ts";
import { writeGroup } from "../../../src/core/store/groups.ts";
import { history, resolveRunId, summaryOf } from "../../../src/core/store/history.ts";
import { recordRun, storedRequest } from "../../../src/core/store/record.ts";
import { RunLog } from "../../../src/core/store/run-log.ts";
import { collect, tmpdir } from "../../helpers.ts";

async function* events(runId: string, finish = true): AsyncGenerator<OdEvent> {
  const stamp = createStamper(runId);
  yield stamp({ type: "run.started", agent: "pi", bin: "pi", argv: [], cwd: "/w", mode: "edit" });
  yield stamp({ type: "text.delta", id: "t", text: "hello" });
  if (!finish) return;
  yield stamp({ type: "run.result", text: "hello", toolCalls: [], files: [], rawTail: "", usage: { inputTokens: 4, outputTokens: 2 } });
  yield stamp({ type: "run.finished", status: "succeeded", exitCode: 0, signal: null, durationMs: 7, resumable: false });
}

describe("recordRun", () => {
  test("events pass through unchanged and land in the log with their request; the summary has duration and tokens", async () => {
    await using tmp = tmpdir();
    const log = new RunLog(tmp.path);
    const warnings: string[] = [];
    const request = storedRequest({ agent: "pi", prompt: "go", cwd: "rel" }, { origin: "cli", pid: process.pid });
    const got = await collect(recordRun(events("r1"), { log, runId: "r1", request, warn: (m) => warnings.push(m) }));
    expect(got.map((e) => e.type)).toEqual(["run.started", "text.delta", "run.result", "run.finished"]);
    expect(log.read("r1")).toEqual(got);
    expect(JSON.parse(readFileSync(join(tmp.path, "r1", "request.json"), "utf8"))).toEqual({
      agent: "pi",
      prompt: "go",
      cwd: join(process.cwd(), "rel"),
      origin: "cli",
      pid: process.pid,
    });
    expect(log.summary("r1")).toMatchObject({
      status: "succeeded",
      durationMs: 7,
      usage: { inputTokens: 4, outputTokens: 2 },
      origin: "cli",
    });
    expect(warnings).toEqual([]);
  });

  test("a log that cannot be opened warns once, and the run's events still flow", async () => {
    await using tmp = tmpdir();
    const warnings: string[] = [];
    const log = () => new RunLog("/proc/no-such-place/runs");
    const got = await collect(recordRun(events("r1"), { log, runId: "r1", request: {}, warn: (m) => warnings.push(m) }));
    expect(got).toHaveLength(4);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("not kept in od's history");
    expect(existsSync(join(tmp.path, "r1"))).toBe(false);
  });
});

describe("history", () => {
  test("a compare run is one entry with its members; a group folder is no run to list, recover or summarise", async () => {
    await using tmp = tmpdir();
    const log = new RunLog(tmp.path);
    await collect(recordRun(events("solo"), { log, runId: "solo", request: { agent: "pi" }, warn: () => {} }));
    for (const id of ["m1", "m2"])
      await collect(recordRun(events(id), { log, runId: id, request: { agent: "pi", groupId: "g1" }, warn: () => {} }));
    writeGroup(tmp.path, {
      id: "g1",
      cwd: "/w",
      prompt: "p",
      startedAt: Date.now() + 1000,
      members: ["m1", "m2"].map((runId, i) => ({
        label: i ? "pi#2" : "pi",
        agent: "pi",
        runId,
        status: "succeeded",
        durationMs: 1,
        files: [],
      })),
    });
    const entries = history(log);
    expect(entries.map((e) => (e.kind === "run" ? e.run.runId : e.group.id))).toEqual(["g1", "solo"]);
    expect(entries[0]!.kind === "group" && entries[0]!.members.map((m) => m.groupId)).toEqual(["g1", "g1"]);
    expect(log.list().sort()).toEqual(["m1", "m2", "solo"]);
    expect(log.recover()).toEqual([]);
    expect(existsSync(join(tmp.path, "g1", "events.jsonl"))).toBe(false);
    expect(resolveRunId(log, "g").group?.id).toBe("g1");
    expect(() => resolveRunId(log, "m")).toThrow(/ambiguous/);
  });

  test("a live CLI run is left to its od by a server's recovery; one whose od died is shown failed, and recovered", async () => {
    await using tmp = tmpdir();
    const log = new RunLog(tmp.path);
    await collect(recordRun(events("live", false), { log, runId: "live", request: { agent: "pi", pid: process.ppid }, warn: () => {} }));
    const dead = Bun.spawnSync(["true"]).pid;
    await collect(recordRun(events("dead", false), { log, runId: "dead", request: { agent: "pi", pid: dead }, warn: () => {} }));
    expect(summaryOf(log, "live")?.status).toBe("running");
    expect(summaryOf(log, "dead")?.status).toBe("failed");
    expect(log.recover()).toEqual(["dead"]);
    expect(log.summary("live").status).toBe("running");
  });
});
