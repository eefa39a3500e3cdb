/**
 * GET /api/runs pages through the whole history (src/core/runs/page.ts): `limit` records newest
 * first, `next` the cursor for the page after (`before=`), filters by agent, status and text, the total
 * that match and the agents the history holds. A conversation sorts by its last turn.
 */
import { describe, expect, test } from "bun:test";
import type { HistoryRecord } from "../../src/core/runs/history.ts";
import { historyPage } from "../../src/core/runs/page.ts";
import { tmpdir } from "../helpers.ts";
import { testApp } from "./support.ts";

const run = (runId: string, startedAt: number, more: Record<string, unknown> = {}): HistoryRecord =>
  ({ kind: "run", runId, agent: "fake", prompt: `prompt ${runId}`, cwd: "/w", status: "succeeded", startedAt, ...more }) as HistoryRecord;

describe("history pages", () => {
  const records: HistoryRecord[] = [
    run("a", 1),
    run("b", 2, { status: "failed", agent: "codex" }),
    run("c", 3, { prompt: "Fix the README" }),
    run("d", 3), // the same start as c: the id decides, and no page loses either
    {
      kind: "thread",
      threadId: "t",
      agent: "fake",
      prompt: "hello",
      startedAt: 0,
      status: "succeeded",
      turns: [run("t", 0), run("t2", 9)],
    },
    {
      kind: "compare",
      groupId: "g",
      prompt: "both",
      cwd: "/w",
      startedAt: 5,
      status: "cancelled",
      members: [run("m1", 5, { agent: "pi" })],
    },
  ] as HistoryRecord[];
  const ids = (page: { runs: HistoryRecord[] }) =>
    page.runs.map((r) => (r.kind === "compare" ? r.groupId : r.kind === "thread" ? r.threadId : r.runId));

  test("pages of `limit`, newest first (a conversation by its last turn), each starting after the last one's cursor", () => {
    const seen: string[] = [];
    let before: string | undefined;
    for (let i = 0; i < 10; i++) {
      const page = historyPage(records, { limit: 2, before });
      seen.push(...ids(page));
      expect(page.total).toBe(6);
      before = page.next;
      if (!before) break;
    }
    expect(seen).toEqual(["t", "g", "d", "c", "b", "a"]);
    expect(historyPage(records, { limit: 10 }).next).toBeUndefined();
    expect(historyPage(records, { limit: 1 }).agents).toEqual(["codex", "fake", "pi"]);
  });

  test("filters: an agent (a compare run's members count), a status, text in a prompt, any turn's or the folder", () => {
    expect(ids(historyPage(records, { limit: 10, agent: "pi" }))).toEqual(["g"]);
    expect(ids(historyPage(records, { limit: 10, status: "failed" }))).toEqual(["b"]);
    expect(ids(historyPage(records, { limit: 10, q: "readme" }))).toEqual(["c"]);
    expect(ids(historyPage(records, { limit: 10, q: "PROMPT T2" }))).toEqual(["t"]);
    const page = historyPage(records, { limit: 1, agent: "fake" });
    expect([ids(page), page.total]).toEqual([["t"], 4]);
    expect(ids(historyPage(records, { limit: 10, agent: "fake", before: page.next }))).toEqual(["d", "c", "a"]);
  });

  test("GET /api/runs: pages and filters over the server's runs; a malformed cursor is refused", async () => {
    await using tmp = tmpdir();
    const { request, runs } = testApp(tmp.path, [{ read: "all" }, { stdout: { t: "text", v: "ok" } }]);
    for (const prompt of ["one", "two", "three"]) {
      const { runId } = await runs.start({ agent: "fake", prompt, cwd: tmp.path }, { origin: "serve" });
      await runs.waitFor(runId);
    }
    type Page = { runs: Array<{ prompt: string }>; next?: string; total: number; agents: string[] };
    const first = (await (await request("/api/runs?limit=2")).json()) as Page;
    expect([first.runs.map((r) => r.prompt), first.total, first.agents]).toEqual([["three", "two"], 3, ["fake"]]);
    const second = (await (await request(`/api/runs?limit=2&before=${encodeURIComponent(first.next!)}`)).json()) as Page;
    expect([second.runs.map((r) => r.prompt), second.next]).toEqual([["one"], undefined]);
    const found = (await (await request("/api/runs?q=TWO&status=succeeded&agent=fake")).json()) as Page;
    expect(found.runs.map((r) => r.prompt)).toEqual(["two"]);
    expect((await request("/api/runs?before=yesterday")).status).toBe(400);
  });
});
