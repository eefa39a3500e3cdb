/** History as every surface lists it: single runs and compare runs as one record each; what a dead od left, interrupted and recovered. */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createRegistry } from "../../../src/core/agents/registry.ts";
import { createStamper, type OdEvent } from "../../../src/core/contract/events.ts";
import { Slots } from "../../../src/core/os/slots.ts";
import { history, resolveRunId, summaryOf } from "../../../src/core/runs/history.ts";
import { Runs } from "../../../src/core/runs/service.ts";
import { writeGroup } from "../../../src/core/store/groups.ts";
import { RunLog } from "../../../src/core/store/run-log.ts";
import { tmpdir } from "../../helpers.ts";

function events(runId: string, finish = true): OdEvent[] {
  const stamp = createStamper(runId);
  const out = [
    stamp({ type: "run.started", agent: "pi", bin: "pi", argv: [], cwd: "/w", mode: "edit" }),
    stamp({ type: "text.delta", id: "t", text: "hello" }),
  ];
  if (!finish) return out;
  return [
    ...out,
    stamp({ type: "run.result", text: "hello", toolCalls: [], files: [], rawTail: "", usage: { inputTokens: 4, outputTokens: 2 } }),
    stamp({ type: "run.finished", status: "succeeded", exitCode: 0, signal: null, durationMs: 7, resumable: false }),
  ];
}

/** A run's record as an od writes it: request.json, then its events. */
function record(log: RunLog, runId: string, request: Record<string, unknown>, list: OdEvent[]): void {
  const writer = log.open(runId, request);
  for (const e of list) writer.append(e);
  writer.close();
}

const service = (log: RunLog) => new Runs({ registry: createRegistry([]), log, slots: new Slots(1), env: {} });

describe("history", () => {
  test("a compare run is one record with its members inside; a group folder is no run to list, recover or summarise", async () => {
    await using tmp = tmpdir();
    const log = new RunLog(tmp.path);
    record(log, "solo", { agent: "pi", pid: process.pid }, events("solo"));
    for (const id of ["m1", "m2"]) record(log, id, { agent: "pi", groupId: "g1", pid: process.pid }, events(id));
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
    const records = history(log);
    expect(records.map((r) => (r.kind === "run" ? r.runId : r.kind === "compare" ? r.groupId : r.threadId))).toEqual(["g1", "solo"]);
    const group = records[0]!;
    expect(group.kind === "compare" && group.members.map((m) => [m.label, m.groupId, m.usage?.inputTokens])).toEqual([
      ["pi", "g1", 4],
      ["pi#2", "g1", 4],
    ]);
    expect(group).toMatchObject({ status: "succeeded", usage: { inputTokens: 8, outputTokens: 4 } });
    expect(log.list().sort()).toEqual(["m1", "m2", "solo"]);
    expect(service(log).recover().runs).toEqual([]);
    expect(existsSync(join(tmp.path, "g1", "events.jsonl"))).toBe(false);
    expect(resolveRunId(log, "g").group?.id).toBe("g1");
    expect(() => resolveRunId(log, "m")).toThrow(/ambiguous/);
  });

  test("a live CLI run is left to its od by recovery; one whose od died is interrupted, then recovered with its one run.finished", async () => {
    await using tmp = tmpdir();
    const log = new RunLog(tmp.path);
    record(log, "live", { agent: "pi", pid: process.ppid }, events("live", false));
    const dead = Bun.spawnSync(["true"]).pid;
    record(log, "dead", { agent: "pi", pid: dead }, events("dead", false));
    record(log, "empty", { agent: "pi", pid: dead }, []);
    expect(summaryOf(log, "live")?.status).toBe("running");
    expect(summaryOf(log, "dead")?.status).toBe("interrupted");
    // A folder with an empty log is not "running" either.
    expect(summaryOf(log, "empty")?.status).toBe("interrupted");
    expect(service(log).recover().runs.sort()).toEqual(["dead", "empty"]);
    expect(log.summary("live").status).toBe("running");
    const ended = log.read("dead");
    expect(ended.filter((e) => e.type === "run.finished")).toEqual([expect.objectContaining({ status: "failed", seq: 3 })]);
    expect(ended.at(-2)).toMatchObject({ type: "error", code: "AGENT_CRASHED" });
    expect(service(log).recover().runs).toEqual([]); // once
  });

  test("a compare run whose od died is interrupted, once, with each member that had not ended", async () => {
    await using tmp = tmpdir();
    const log = new RunLog(tmp.path);
    const dead = Bun.spawnSync(["true"]).pid;
    const member = (runId: string, status: "succeeded" | "running") => ({
      label: runId,
      agent: "pi",
      runId,
      status,
      durationMs: 1,
      files: [],
    });
    writeGroup(tmp.path, {
      id: "g2",
      cwd: "/w",
      prompt: "p",
      startedAt: Date.now(),
      status: "running",
      owner: { pid: dead },
      members: [member("a1", "succeeded"), member("b1", "running")],
    });
    expect(service(log).recover().groups).toEqual(["g2"]);
    const [record] = history(log);
    expect(record).toMatchObject({ kind: "compare", status: "interrupted" });
    expect(record?.kind === "compare" && record.members.map((m) => m.status)).toEqual(["succeeded", "interrupted"]);
    expect(service(log).recover().groups).toEqual([]);
  });
});
