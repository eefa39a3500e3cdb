/**
 * 5. Scale: N concurrent runs through one `dist/od serve`, each a fake Claude
 * streaming `events` text deltas ("#<i>;") from a real stream-json file, each
 * with its own SSE client (POST /api/chat). Per N, a fresh server: wall time,
 * events per second delivered, the server's peak RSS (VmHWM) and CPU time, and
 * the loss check: every run's seq is 0,1,2,... with no gap, every delta arrives
 * once and in order, and the run ends succeeded.
 * The fake agent is `cat` of the stream file: on 2 cores it leaves the CPU to od.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "../helpers.ts";
import { chat, claudeStreamFile, fakeBin, isolatedEnv, lineSplitter, type Served, serve } from "./fakes.ts";
import { type Figure, figure, rssOf } from "./stats.ts";

interface RunCheck {
  frames: number;
  deltas: number;
  problems: string[];
  status?: string;
}

/** One SSE client that checks order and loss as the frames arrive, cheaply (2 cores). */
function checker(expectDeltas: number) {
  const c: RunCheck = { frames: 0, deltas: 0, problems: [] };
  let type = "";
  const onLine = (line: string) => {
    if (line.startsWith("id: ")) {
      const seq = Number(line.slice(4));
      if (seq !== c.frames && c.problems.length < 5) c.problems.push(`seq ${seq} where ${c.frames} was due`);
      c.frames++;
    } else if (line.startsWith("event: ")) type = line.slice(7);
    else if (line.startsWith("data: ")) {
      if (type === "text.delta") {
        const at = line.indexOf('"text":"#');
        const i = at < 0 ? -1 : Number.parseInt(line.slice(at + 9), 10);
        if (i !== c.deltas && c.problems.length < 5) c.problems.push(`delta #${i} where #${c.deltas} was due`);
        c.deltas++;
      } else if (type === "run.finished") c.status = /"status":"(\w+)"/.exec(line)?.[1];
    }
  };
  const done = () => {
    if (c.deltas !== expectDeltas) c.problems.push(`${c.deltas} of ${expectDeltas} deltas`);
    if (c.status !== "succeeded") c.problems.push(`run ended ${c.status ?? "without run.finished"}`);
    return c;
  };
  return { onChunk: lineSplitter(onLine), done };
}

function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) / 100; // utime + stime, in USER_HZ (100)
  } catch {
    return Number.NaN;
  }
}

async function once(n: number, events: number, streamFile: string) {
  await using tmp = tmpdir("od-bench-scale-");
  fakeBin(join(tmp.path, "bin"), "claude", `exec cat "${streamFile}"`);
  const server: Served = await serve(isolatedEnv(tmp.path), n, tmp.path);
  try {
    const t = performance.now();
    const checks = await Promise.all(
      Array.from({ length: n }, async () => {
        const c = checker(events);
        await chat(server, { agent: "claude", prompt: "hi", cwd: tmp.path }, c.onChunk);
        return c.done();
      }),
    );
    const wallMs = performance.now() - t;
    const frames = checks.reduce((s, c) => s + c.frames, 0);
    const lost = checks.flatMap((c) => c.problems);
    return {
      wallMs,
      frames,
      rate: frames / (wallMs / 1000),
      peakMiB: rssOf(server.pid).peakMiB,
      cpuUsPerEvent: (cpuSeconds(server.pid) * 1e6) / frames,
      lost,
    };
  } finally {
    await server.stop();
  }
}

export async function benchScale(opts: { ns: number[]; events: number; reps: (n: number) => number }): Promise<Figure[]> {
  await using tmp = tmpdir("od-bench-stream-");
  const streamFile = claudeStreamFile(join(tmp.path, "stream.jsonl"), opts.events);
  const out: Figure[] = [];
  for (const n of opts.ns) {
    const runs = [];
    for (let rep = 0; rep < opts.reps(n); rep++) runs.push(await once(n, opts.events, streamFile));
    const lost = runs.flatMap((r) => r.lost);
    const big = n === Math.max(...opts.ns);
    const label = `${n} run${n > 1 ? "s" : ""} x ${opts.events / 1000}k`;
    out.push(
      figure(
        "5 scale",
        `${label}: wall`,
        "s",
        runs.map((r) => r.wallMs / 1000),
      ),
    );
    out.push(
      figure(
        "5 scale",
        `${label}: throughput`,
        "events/s",
        runs.map((r) => r.rate),
      ),
    );
    out.push(
      figure(
        "5 scale",
        `${label}: server CPU per event`,
        "us",
        runs.map((r) => r.cpuUsPerEvent),
      ),
    );
    const peak = runs.map((r) => r.peakMiB);
    out.push(figure("5 scale", `${label}: server peak RSS`, "MiB", peak, big ? { target: "< 128 MiB", met: Math.max(...peak) < 128 } : {}));
    out.push(
      figure("5 scale", `${label}: events lost or out of order`, "count", [lost.length], {
        target: "0",
        met: lost.length === 0,
        note: lost.length
          ? lost.slice(0, 5).join("; ")
          : `every run: ${opts.events} deltas in order, seq gap-free, succeeded (${runs.length} rep${runs.length > 1 ? "s" : ""})`,
      }),
    );
  }
  return out;
}
