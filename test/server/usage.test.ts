/** GET /api/usage: the run log's runs per day per agent, behind the token like every /api route; a live run counts from memory. */
import { describe, expect, test } from "bun:test";
import type { UsageReport } from "../../src/core/runs/usage.ts";
import { writeGroup } from "../../src/core/store/groups.ts";
import { tmpdir } from "../helpers.ts";
import { recordRuns } from "../support/usage-runs.ts";
import { HOST, testApp } from "./support.ts";

const H = 3_600_000;

describe("GET /api/usage", () => {
  test("sums the runs of the window per day and per agent, a compare run's members each once, and skips older runs", async () => {
    await using tmp = tmpdir();
    const { request, log } = testApp(tmp.path, []);
    const now = Date.now();
    const [a, b] = recordRuns(log, [
      { agent: "claude", startedAt: now - H, durationMs: 40_000, inputTokens: 1000, outputTokens: 500, costUsd: 0.4 },
      { agent: "codex", startedAt: now - 2 * H, durationMs: 20_000, inputTokens: 300, outputTokens: 100 },
      { agent: "claude", startedAt: now - 3 * 24 * H, durationMs: 5_000, inputTokens: 7, outputTokens: 7, costUsd: 0.01 },
      { agent: "claude", startedAt: now - 40 * 24 * H, durationMs: 5_000, inputTokens: 99_999 },
    ]);
    const member = (runId: string, label: string) => ({
      label,
      agent: label,
      runId,
      status: "succeeded" as const,
      durationMs: 1,
      files: [],
    });
    writeGroup(log.dir, {
      id: "group-1",
      cwd: "/w",
      prompt: "p",
      startedAt: now - 2 * H,
      members: [member(a!, "claude"), member(b!, "codex")],
    });
    const res = await request("/api/usage?days=7&tz=0");
    expect(res.status).toBe(200);
    const report = (await res.json()) as UsageReport;
    expect(report.days).toBe(7);
    expect(report.daily).toHaveLength(7);
    expect(report.agents).toEqual(["claude", "codex"]);
    expect(report.byAgent.claude).toEqual({ runs: 2, inputTokens: 1007, outputTokens: 507, costUsd: 0.41, priced: 2, durationMs: 45_000 });
    expect(report.total).toMatchObject({ runs: 3, inputTokens: 1307, outputTokens: 607 });
    expect(report.recent.map((r) => r.durationMs)).toEqual([5_000, 20_000, 40_000]);
    // 30 days by default: the run of 40 days ago is still outside.
    const month = (await (await request("/api/usage?tz=0")).json()) as UsageReport;
    expect([month.days, month.total.runs]).toEqual([30, 3]);
  });

  test("a run going on counts from memory: a run with no time yet", async () => {
    await using tmp = tmpdir();
    const { request, runs } = testApp(tmp.path, [{ stdout: { t: "text", v: "working" } }, { hang: true }]);
    const handle = await runs.start({ agent: "fake", prompt: "hi", cwd: tmp.path }, { origin: "serve" });
    const report = (await (await request("/api/usage?days=1")).json()) as UsageReport;
    expect(report.byAgent.fake).toMatchObject({ runs: 1, durationMs: 0 });
    expect(report.recent).toEqual([]);
    handle.cancel();
    await handle.done;
  });

  // [query, what the 400 says]
  const bad: Array<[string, string]> = [
    ["days=0", "days must be a whole number from 1 to 366, not 0"],
    ["days=abc", "days must be a whole number from 1 to 366, not abc"],
    ["days=2.5", "days must be a whole number from 1 to 366, not 2.5"],
    ["days=400", "days must be a whole number from 1 to 366, not 400"],
    ["tz=900", "tz must be a whole number from -840 to 840, not 900"],
  ];
  for (const [query, message] of bad)
    test(`?${query} is a 400 that says what to send`, async () => {
      await using tmp = tmpdir();
      const { request } = testApp(tmp.path, []);
      const res = await request(`/api/usage?${query}`);
      expect(res.status).toBe(400);
      const { error } = (await res.json()) as { error: { code: string; message: string; hint: string } };
      expect(error).toMatchObject({ code: "INVALID_REQUEST", message });
      expect(error.hint).toMatch(/\?(days|tz)=/);
    });

  test("without the token it is refused, as every /api route", async () => {
    await using tmp = tmpdir();
    const { app } = testApp(tmp.path, []);
    const res = await app.request("/api/usage", { headers: { host: HOST } });
    expect(res.status).toBe(401);
  });
});
