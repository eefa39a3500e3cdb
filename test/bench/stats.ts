/** Figures for the benchmarks: a median of repeated runs with its min and max, a table, and the machine they ran on. */
import { readFileSync } from "node:fs";
import { cpus, freemem, loadavg, totalmem } from "node:os";

export interface Figure {
  section: string;
  name: string;
  unit: string;
  median: number;
  min: number;
  max: number;
  runs: number;
  /** A target from issue 11 this figure is judged against, and whether it holds. */
  target?: string;
  met?: boolean;
  note?: string;
}

export function median(xs: number[]): number {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function percentile(xs: number[], p: number): number {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

/** One figure from repeated samples. */
export function figure(section: string, name: string, unit: string, samples: number[], extra: Partial<Figure> = {}): Figure {
  const ok = samples.filter((x) => Number.isFinite(x));
  return { section, name, unit, median: median(ok), min: Math.min(...ok), max: Math.max(...ok), runs: ok.length, ...extra };
}

export const now = () => performance.timeOrigin + performance.now();

/** Times `f` once, in milliseconds. */
export async function timed(f: () => unknown): Promise<number> {
  const t = performance.now();
  await f();
  return performance.now() - t;
}

function fmt(x: number): string {
  if (!Number.isFinite(x)) return "-";
  const a = Math.abs(x);
  if (a >= 1e6) return `${(x / 1e6).toFixed(2)}M`;
  if (a >= 1e4) return `${(x / 1e3).toFixed(1)}k`;
  if (a >= 100) return x.toFixed(0);
  if (a >= 10) return x.toFixed(1);
  if (a >= 1) return x.toFixed(2);
  return x.toFixed(3);
}

export function verdict(f: Figure): string {
  return f.met === undefined ? "" : f.met ? "met" : "MISSED";
}

/** A plain-text table (markdown when `md`): section, figure, median, min, max, unit, runs, target. */
export function table(figures: Figure[], md = false): string {
  const head = ["section", "figure", "median", "min", "max", "unit", "n", "target"];
  const rows = figures.map((f) => [
    f.section,
    f.name,
    fmt(f.median),
    fmt(f.min),
    fmt(f.max),
    f.unit,
    String(f.runs),
    f.target ? `${f.target}: ${verdict(f)}` : "",
  ]);
  if (md) return [head, head.map(() => "---"), ...rows].map((r) => `| ${r.map((c) => c.replaceAll("|", "\\|")).join(" | ")} |`).join("\n");
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (i >= 2 && i <= 4 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(head), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

export interface Machine {
  nproc: number;
  cpu: string;
  memTotalGiB: number;
  memFreeGiB: number;
  bun: string;
  kernel: string;
  loadAtStart: number[];
  loadSamples: Array<{ section: string; load: number[] }>;
}

export function machine(): Machine {
  let kernel = "";
  try {
    kernel = readFileSync("/proc/sys/kernel/osrelease", "utf8").trim();
  } catch {}
  return {
    nproc: cpus().length,
    cpu: cpus()[0]?.model ?? "unknown",
    memTotalGiB: +(totalmem() / 2 ** 30).toFixed(1),
    memFreeGiB: +(freemem() / 2 ** 30).toFixed(1),
    bun: Bun.version,
    kernel,
    loadAtStart: loadavg().map((x) => +x.toFixed(2)),
    loadSamples: [],
  };
}

/** Peak and current resident set of a process, in MiB, from /proc. */
export function rssOf(pid: number): { peakMiB: number; nowMiB: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (key: string) => Number(status.match(new RegExp(`^${key}:\\s+(\\d+)`, "m"))?.[1] ?? Number.NaN);
    return { peakMiB: kb("VmHWM") / 1024, nowMiB: kb("VmRSS") / 1024 };
  } catch {
    return { peakMiB: Number.NaN, nowMiB: Number.NaN };
  }
}

/** Section 1 as one row per adapter (median MB/s, events/s and ratios), markdown: the README form. */
export function parseTableMd(figures: Figure[]): string {
  const parse = figures.filter((f) => f.section === "1 parse" && f.name.includes(": "));
  const ids = [...new Set(parse.map((f) => f.name.split(": ")[0]!))];
  const get = (id: string, what: string, unit: string) => parse.find((f) => f.name === `${id}: ${what}` && f.unit === unit);
  const cell = (f: Figure | undefined) => (f ? fmt(f.median) : "-");
  const ratio = (f: Figure | undefined) =>
    f ? `${fmt(f.median)} (${fmt(f.min)}–${fmt(f.max)})${f.met === false ? " **missed**" : ""}` : "-";
  const head =
    "| adapter | protocol | JSON.parse floor MB/s | parser MB/s | parser events/s | pipeline MB/s | parser / floor | pipeline / floor |\n| --- | --- | --- | --- | --- | --- | --- | --- |";
  const rows = ids.map((id) => {
    const floor = get(id, "JSON.parse floor", "MB/s");
    const kind = floor?.note?.split(",")[0] ?? "";
    return `| ${id} | ${kind} | ${cell(floor)} | ${cell(get(id, "parser", "MB/s"))} | ${cell(get(id, "parser", "events/s"))} | ${cell(get(id, "pipeline (interpret)", "MB/s"))} | ${ratio(get(id, "parser / floor", "x"))} | ${ratio(get(id, "pipeline / floor", "x"))} |`;
  });
  return [head, ...rows].join("\n");
}
