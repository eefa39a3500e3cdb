// Shared plumbing of the live lane: preparing it once (build, adapters, installs), a fresh
// fixture per test, the run invariants every od run must keep, and the results table.
import { expect } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLIS, installCli, type LiveCli, liveEnv } from "./clis.ts";
import { type ModelStub, type RecordedRequest, type Scenario, startModelStub } from "./model-stub.ts";
import { ensureBuilt, type OdResult, odAdapterIds } from "./od.ts";
import { killAll, survivors } from "./procs.ts";

export interface Lane {
  /** Set when the lane cannot run at all (build failed, od unusable). */
  error?: string;
  adapters: string[];
  bins: Map<string, { binDir?: string; error?: string }>;
  notes: string[];
  started: number;
}

/** Once per lane: build dist/od if stale, ask it which adapters it has, install the pinned CLIs. */
export async function prepareLane(): Promise<Lane> {
  const lane: Lane = { adapters: [], bins: new Map(), notes: [], started: performance.now() };
  const scratch = mkdtempSync(join(tmpdir(), "od-live-probe-"));
  try {
    lane.notes.push(await ensureBuilt());
    lane.adapters = await odAdapterIds({ PATH: "/usr/bin:/bin", HOME: scratch, OD_HOME: join(scratch, ".od") });
  } catch (err) {
    lane.error = (err as Error).message;
    return lane;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  // One install per package: an ACP variant shares its CLI's.
  const installs = new Map<string, Promise<string>>();
  await Promise.all(
    CLIS.filter((cli) => lane.adapters.includes(cli.id)).map(async (cli) => {
      const t0 = performance.now();
      const key = `${cli.pkg}@${cli.version}`;
      if (!installs.has(key)) installs.set(key, installCli(cli));
      try {
        lane.bins.set(cli.id, { binDir: await installs.get(key)! });
        lane.notes.push(`${cli.id}: ${key} ready in ${secs(performance.now() - t0)}`);
      } catch (err) {
        lane.bins.set(cli.id, { error: (err as Error).message });
      }
    }),
  );
  return lane;
}

export interface Fixture {
  cli: LiveCli;
  binDir: string;
  home: string;
  work: string;
  stub: ModelStub;
  env: Record<string, string>;
}

/** Fresh HOME, work dir and stub for one test; `dispose` kills leftovers and removes it all. */
export async function fixture(cli: LiveCli, binDir: string, scenario: Scenario) {
  const home = mkdtempSync(join(tmpdir(), `od-live-${cli.id}-home-`));
  const work = mkdtempSync(join(tmpdir(), `od-live-${cli.id}-work-`));
  const stub = await startModelStub({ scenario });
  const fx: Fixture = { cli, binDir, home, work, stub, env: liveEnv(cli, { binDir, home, stubUrl: stub.url }) };
  const dispose = async () => {
    killAll(survivors([], { home, work }));
    await stub.stop();
    rmSync(home, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  };
  return { ...fx, dispose };
}

/** The stub's model turns (not count_tokens, model lists or 404s). */
export function turns(stub: ModelStub): RecordedRequest[] {
  return stub.requests.filter((r) => r.api !== "other" && r.answered !== undefined && r.answered !== "404");
}

/** How many conversation messages a request carried, whatever the wire API. */
export function messageCount(r: RecordedRequest): number {
  const b = (r.body ?? {}) as Record<string, unknown>;
  const list = [b.messages, b.input, b.contents].find(Array.isArray) as unknown[] | undefined;
  return list?.length ?? 0;
}

/** What every od run must keep: JSON only, one run.finished and last, one run id, seq increasing, tools paired. */
export function checkRun(r: OdResult): void {
  expect(r.killed, `od hung and was killed by the lane's watchdog; stderr: ${r.stderr.slice(-500)}\n${r.hang}`).toBe(false);
  expect(r.junk, "non-JSON lines on stdout with --json").toEqual([]);
  expect(r.of("run.finished")).toHaveLength(1);
  expect(r.events.at(-1)?.type).toBe("run.finished");
  expect(new Set(r.events.map((e) => e.runId)).size).toBe(1);
  r.events.forEach((e, i) => i > 0 && expect(e.seq).toBeGreaterThan(r.events[i - 1]!.seq));
  const results = r.of("tool.result");
  for (const call of r.of("tool.call")) {
    const paired = results.filter((x) => x.id === call.id);
    expect(paired, `tool.call ${call.id} (${call.name}) must have exactly one tool.result`).toHaveLength(1);
    expect(r.events.indexOf(paired[0]!)).toBeGreaterThan(r.events.indexOf(call));
  }
}

export interface Row {
  cli: string;
  scenario: string;
  result: "passed" | "failed" | "skipped";
  ms?: number;
  note: string;
}

export const secs = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

/** The table printed at the end of the lane: one line per CLI x scenario, and the totals. */
export function formatRows(rows: Row[], wallMs: number): string {
  const w = (s: string, n: number) => s.padEnd(n);
  const lines = rows.map(
    (r) => `  ${w(r.cli, 8)} ${w(r.scenario, 16)} ${w(r.result, 8)} ${w(r.ms === undefined ? "-" : secs(r.ms), 7)} ${r.note}`,
  );
  const count = (k: Row["result"]) => rows.filter((r) => r.result === k).length;
  return [
    "live lane: dist/od against the real CLIs (model stub on 127.0.0.1)",
    `  ${w("cli", 8)} ${w("scenario", 16)} ${w("result", 8)} ${w("time", 7)} note`,
    ...lines,
    `  live lane totals: ${count("passed")} passed, ${count("failed")} failed, ${count("skipped")} skipped in ${secs(wallMs)}`,
  ].join("\n");
}
