/**
 * 1. Parse throughput of every adapter's parser on a large stream built from its
 * real fixtures, side by side with bare JSON.parse of the same lines (the floor):
 *   floor      JSON.parse(line)
 *   parser     JSON.parse + the adapter's parse/receive (what the plugin costs)
 *   pipeline   interpret() as a run of a built-in adapter does it: JSON.parse + parse + the framing guarantees
 *              (a plugin's events also get the event-schema check, which built-ins skip)
 * Each repetition times the three back to back per adapter, so ratios hold on a noisy machine.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadRegistry } from "../../src/builtins.ts";
import { driverFor } from "../../src/core/agents/driver-for.ts";
import type { Adapter } from "../../src/core/contract/adapter.ts";
import { interpret } from "../../src/core/protocols/interpret.ts";
import { FIXTURES } from "../helpers.ts";
import { type Figure, figure, median } from "./stats.ts";

/** One fixture replayed: its lines, parsed with a fresh state, as one run. */
type Run = string[];

interface Corpus {
  adapter: Adapter;
  kind: string;
  runs: Run[];
  lines: number;
  bytes: number;
}

function corpus(adapter: Adapter, targetBytes: number): Corpus | undefined {
  // Parsers of CLI output only: line protocols and session drivers (od's own loops read no stdout).
  if (adapter.protocol.kind !== "lines" && adapter.protocol.kind !== "driver") return undefined;
  const dir = join(FIXTURES, adapter.id);
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith(".jsonl"))
      .sort();
  } catch {
    return undefined;
  }
  const fixtures = files.map((f) => readFileSync(join(dir, f), "utf8").replace(/\n$/, "").split("\n"));
  const once = fixtures.reduce((n, lines) => n + lines.reduce((m, l) => m + Buffer.byteLength(l) + 1, 0), 0);
  if (!once) return undefined;
  const copies = Math.max(1, Math.round(targetBytes / once));
  const runs: Run[] = [];
  for (let i = 0; i < copies; i++) runs.push(...fixtures);
  const p = adapter.protocol as { kind: string; driver?: string; format?: string };
  const kind = p.kind === "lines" ? `lines:${p.format ?? "json"}` : `${p.kind}:${p.driver ?? "?"}`;
  return { adapter, kind, runs, lines: runs.reduce((n, r) => n + r.length, 0), bytes: once * copies };
}

const ctxOf = (a: Adapter) => ({ agent: { name: a.name, login: a.login }, prompt: "Say hi", cwd: "/work/project", mode: "edit" as const });

/** Bare JSON.parse of every line (text protocols: nothing to parse, so the floor is a length read). */
function floor(c: Corpus): number {
  let sink = 0;
  const json = !c.kind.endsWith(":text");
  for (const run of c.runs)
    for (const line of run) {
      if (!json) sink += line.length;
      else if (line.trim())
        try {
          sink += JSON.parse(line) ? 1 : 0;
        } catch {}
    }
  return sink;
}

/** JSON.parse and the adapter's own parser; returns the number of events. */
function parser(c: Corpus): number {
  const driver = driverFor(c.adapter);
  let events = 0;
  for (const run of c.runs) {
    const { state } = driver.start(ctxOf(c.adapter));
    for (const line of run) {
      if (!line.trim() && !driver.textLines) continue;
      let record: unknown = line;
      if (!driver.textLines)
        try {
          record = JSON.parse(line);
        } catch {
          events++;
          continue;
        }
      try {
        events += driver.receive(record, state, line).events.length;
      } catch {
        events++;
      }
    }
    events += driver.finish?.(state).length ?? 0;
  }
  return events;
}

/** What the run pipeline does with each line of a built-in adapter (plugins' events are schema-checked on top). */
function pipeline(c: Corpus): number {
  const driver = driverFor(c.adapter);
  let events = 0;
  for (const run of c.runs) {
    const { state } = driver.start(ctxOf(c.adapter));
    for (const line of run) events += interpret(driver, state, line, false).events.length;
    events += driver.finish?.(state).length ?? 0;
  }
  return events;
}

/** Time per pass of `f`, repeated `passes` times (so one timing lasts long enough to read), and its last result. */
const ms = (f: () => number, passes: number): [number, number] => {
  let n = 0;
  const t = performance.now();
  for (let i = 0; i < passes; i++) n = f();
  return [(performance.now() - t) / passes, n];
};

const rotate = <T>(xs: readonly T[], n: number): T[] => xs.map((_, i) => xs[(i + n) % xs.length]!);

export async function benchParse(opts: { reps: number; targetBytes: number }): Promise<Figure[]> {
  const registry = await loadRegistry([]);
  const corpora = registry
    .list()
    .map((e) => corpus(e.adapter, opts.targetBytes))
    .filter((c): c is Corpus => c !== undefined);
  const t: Record<string, { floor: number[]; parser: number[]; pipeline: number[]; ratio: number[]; pipeRatio: number[]; events: number }> =
    {};
  for (const c of corpora) t[c.adapter.id] = { floor: [], parser: [], pipeline: [], ratio: [], pipeRatio: [], events: 0 };
  // Warm-up (the JIT sees every parser), and passes per timing so the slowest of the three lasts >= 40 ms.
  const passes = new Map<Corpus, number>();
  for (const c of corpora) {
    floor(c), parser(c), pipeline(c);
    const [slowest] = ms(() => pipeline(c), 1);
    passes.set(c, Math.max(1, Math.ceil(40 / Math.max(slowest, 0.01))));
  }
  for (let rep = 0; rep < opts.reps; rep++) {
    for (const c of corpora) {
      const r = t[c.adapter.id]!;
      // The order rotates per repetition, and each timing starts after a full GC, so neither carries the other's garbage.
      const timings: Record<string, [number, number]> = {};
      for (const k of rotate(["floor", "parser", "pipeline"] as const, rep)) {
        Bun.gc(true);
        timings[k] = ms(() => (k === "floor" ? floor(c) : k === "parser" ? parser(c) : pipeline(c)), passes.get(c)!);
      }
      const [f] = timings.floor!;
      const [p, events] = timings.parser!;
      const [q] = timings.pipeline!;
      r.floor.push(f), r.parser.push(p), r.pipeline.push(q), (r.events = events);
      r.ratio.push(f / p), r.pipeRatio.push(f / q);
    }
  }
  const out: Figure[] = [];
  const checkNs: number[] = [];
  for (const c of corpora) {
    const r = t[c.adapter.id]!;
    if (r.events) checkNs.push(((median(r.pipeline) - median(r.parser)) * 1e6) / r.events);
    const mb = c.bytes / 2 ** 20;
    const id = c.adapter.id;
    const text = c.kind.endsWith(":text");
    const info = `${c.kind}, ${c.lines} lines, ${mb.toFixed(1)} MiB, ${r.events} events per pass`;
    out.push(
      figure(
        "1 parse",
        `${id}: JSON.parse floor`,
        "MB/s",
        r.floor.map((x) => mb / (x / 1000)),
        { note: text ? `${info}; text protocol: floor is a length read` : info },
      ),
    );
    out.push(
      figure(
        "1 parse",
        `${id}: parser`,
        "MB/s",
        r.parser.map((x) => mb / (x / 1000)),
      ),
    );
    out.push(
      figure(
        "1 parse",
        `${id}: parser`,
        "events/s",
        r.parser.map((x) => r.events / (x / 1000)),
      ),
    );
    out.push(
      figure(
        "1 parse",
        `${id}: pipeline (interpret)`,
        "MB/s",
        r.pipeline.map((x) => mb / (x / 1000)),
      ),
    );
    out.push(
      figure(
        "1 parse",
        `${id}: parser / floor`,
        "x",
        r.ratio,
        text ? { note: "text protocol: no JSON floor; not judged" } : { target: ">= 0.5", met: median(r.ratio) >= 0.5 },
      ),
    );
    out.push(
      figure("1 parse", `${id}: pipeline / floor`, "x", r.pipeRatio, text ? {} : { target: ">= 0.5", met: median(r.pipeRatio) >= 0.5 }),
    );
  }
  out.push(
    figure("1 parse", "pipeline - parser, per event (framing guarantees)", "ns", checkNs, {
      note: "one sample per adapter: (pipeline - parser) time / events",
    }),
  );
  return out;
}
