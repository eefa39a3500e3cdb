#!/usr/bin/env bun
/**
 * `bun run bench`: every benchmark of issue 11 in one run, so ratios hold on a
 * noisy machine. Prints one table (medians of repeated runs, with min and max)
 * and writes test/bench/results/latest.json (+ latest.md, the table for the README).
 * Results are machine- and load-specific, so they are git-ignored; the README
 * keeps a reviewed table with the machine it came from.
 *
 *   bun run bench                     everything (a few minutes on 2 cores)
 *   bun run bench -- --quick          fewer repetitions, smaller streams
 *   bun run bench -- --only parse,scale
 *   bun run bench -- --only parse --adapters codex,devin   the parse section for a few adapters
 *
 * Sections: parse, latency, startup, detect, scale, acp, real-detect (the live lane's real CLIs,
 * installed from its pins when its cache lacks them), sandbox (the kernel sandbox's cost per spawn), pair (real
 * Claude Code through od against it alone, on the loopback model). Needs dist/od (`npm run build`; built here when missing);
 * OD_BENCH_OD=/path/to/od measures another build instead (a proposed fix, side by side).
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { DIST_OD, ROOT } from "../helpers.ts";
import { benchAcp } from "./acp.bench.ts";
import { benchDetect } from "./detect.bench.ts";
import { OD } from "./fakes.ts";
import { benchLatency } from "./latency.bench.ts";
import { benchPair } from "./pair.bench.ts";
import { benchParse, parseSummary } from "./parse.bench.ts";
import { benchRealDetect } from "./real-detect.bench.ts";
import { benchSandbox } from "./sandbox.bench.ts";
import { benchScale } from "./scale.bench.ts";
import { benchStartup } from "./startup.bench.ts";
import { type Figure, machine, parseTableMd, table, verdict } from "./stats.ts";

/** Each section by name, and how it runs (fewer repetitions with --quick; the parse section for some adapters only). */
const sections: Array<[string, (o: { quick: boolean; adapters?: string[] }) => Promise<Figure[]>]> = [
  ["parse", ({ quick, adapters }) => benchParse({ reps: quick ? 3 : 9, targetBytes: (quick ? 1 : 4) << 20, only: adapters })],
  [
    "latency",
    ({ quick }) => benchLatency({ reps: quick ? 2 : 5, lowCount: quick ? 100 : 200, lowIntervalMs: 10, fullCount: quick ? 5000 : 20000 }),
  ],
  ["startup", ({ quick }) => benchStartup({ reps: quick ? 10 : 30, warmup: 3 })],
  ["detect", ({ quick }) => benchDetect({ reps: quick ? 2 : 5, slowMs: 500, slowBin: "claude" })],
  ["scale", ({ quick }) => benchScale({ ns: [1, 8, 32, 128], events: 10_000, reps: (n) => (quick ? 1 : n >= 128 ? 2 : 3) })],
  ["acp", ({ quick }) => benchAcp({ reps: quick ? 2 : 5, updates: 2000 })],
  ["real-detect", ({ quick }) => benchRealDetect({ reps: quick ? 1 : 3, burners: 2 })],
  ["sandbox", ({ quick }) => benchSandbox({ reps: quick ? 20 : 60, warmup: 5 })],
  ["pair", ({ quick }) => benchPair({ pairs: quick ? 3 : 8 })],
];

const USAGE = `usage: bun run bench [-- --quick] [--only section,…] [--adapters id,…] [--out dir]
  sections: ${sections.map(([name]) => name).join(", ")}
  OD_BENCH_OD=/path/to/od measures another build; OD_BENCH_ACPX=/path/to/acpx runs section 6 against acpx\n`;

const usage = (problem?: string): never => {
  process.stderr.write(`${problem ? `bench: ${problem}\n` : ""}${USAGE}`);
  process.exit(problem ? 2 : 0);
};

let parsed: ReturnType<typeof parseOptions>;
const parseOptions = () =>
  parseArgs({
    options: {
      quick: { type: "boolean" },
      only: { type: "string" },
      out: { type: "string" },
      adapters: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
try {
  parsed = parseOptions();
} catch (err) {
  usage((err as Error).message);
}
const { values } = parsed!;
if (values.help) usage();
const quick = Boolean(values.quick);
const only = values.only ? new Set(values.only.split(",").map((s) => s.trim())) : undefined;
const outDir = values.out ?? join(ROOT, "test/bench/results");

// The parse section runs parsers in this process: only the other sections need the binary.
const needsOd = !only || [...only].some((s) => s !== "parse");
if (needsOd && !existsSync(OD) && OD !== DIST_OD) throw new Error(`OD_BENCH_OD=${OD} does not exist`);
if (needsOd && !existsSync(OD)) {
  process.stderr.write("dist/od is missing: building it (npm run build)…\n");
  const b = Bun.spawnSync(["npm", "run", "build"], { cwd: ROOT, stdout: "inherit", stderr: "inherit" });
  if (b.exitCode !== 0) process.exit(b.exitCode ?? 1);
}

const unknown = [...(only ?? [])].filter((name) => !sections.some(([s]) => s === name));
if (unknown.length) usage(`no section ${unknown.join(", ")}`);

const m = machine();
const started = new Date();
const binary = existsSync(OD) ? statSync(OD) : { mtime: new Date(0) };
const commit = Bun.spawnSync(["git", "rev-parse", "--short", "HEAD"], { cwd: ROOT }).stdout.toString().trim();
process.stderr.write(
  `od bench: ${m.nproc} cores (${m.cpu}), ${m.memTotalGiB} GiB, load ${m.loadAtStart.join(" ")}; ${OD} of ${binary.mtime.toISOString()}, HEAD ${commit}\n`,
);

const figures: Figure[] = [];
for (const [name, run] of sections) {
  if (only && !only.has(name)) continue;
  const t = performance.now();
  process.stderr.write(`• ${name}…`);
  const got = await run({ quick, adapters: values.adapters?.split(",").map((s) => s.trim()) });
  figures.push(...got);
  m.loadSamples.push({ section: name, load: loadavg().map((x) => +x.toFixed(2)) });
  process.stderr.write(` ${((performance.now() - t) / 1000).toFixed(1)} s (load ${loadavg()[0]!.toFixed(2)})\n`);
}

const header = `od bench, ${started.toISOString()}: ${m.nproc} × ${m.cpu}, ${m.memTotalGiB} GiB RAM, Linux ${m.kernel}, Bun ${m.bun}; load average ${m.loadAtStart.join(" ")} at start, ${loadavg()
  .map((x) => x.toFixed(2))
  .join(" ")} at end; HEAD ${commit}`;
process.stdout.write(`\n${header}\n\n${table(figures)}\n`);
if (figures.some((f) => f.section === "1 parse"))
  process.stdout.write(
    `\nparse, per adapter (pipeline / floor median and min, parser / floor, pipeline - parser ns per event):\n${parseSummary(figures)}\n`,
  );
const notes = figures.filter((f) => f.note);
if (notes.length) process.stdout.write(`\nnotes:\n${notes.map((f) => `  ${f.section} / ${f.name}: ${f.note}`).join("\n")}\n`);
const judged = figures.filter((f) => f.met !== undefined);
process.stdout.write(
  `\ntargets: ${judged.filter((f) => f.met).length} met, ${judged.filter((f) => !f.met).length} missed${
    judged.some((f) => !f.met)
      ? `: ${judged
          .filter((f) => !f.met)
          .map((f) => `${f.section} / ${f.name} (${verdict(f)})`)
          .join("; ")}`
      : ""
  }\n`,
);

mkdirSync(outDir, { recursive: true });
writeFileSync(
  join(outDir, "latest.json"),
  `${JSON.stringify({ startedAt: started.toISOString(), commit, binary: OD, binaryBuiltAt: binary.mtime.toISOString(), machine: { ...m, loadAtEnd: loadavg() }, figures }, null, 2)}\n`,
);
const others = figures.filter((f) => f.section !== "1 parse" || !f.name.includes(": "));
const parseMd = figures.some((f) => f.section === "1 parse") ? `${parseTableMd(figures)}\n\n` : "";
writeFileSync(join(outDir, "latest.md"), `${header}\n\n${parseMd}${table(others, true)}\n`);
process.stderr.write(`wrote ${join(outDir, "latest.json")} and latest.md\n`);
