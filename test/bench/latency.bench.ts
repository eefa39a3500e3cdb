/**
 * 2. Added latency per event. A fake Claude (bin/ticker.ts) stamps each text
 * delta with the moment it writes it; the reader notes when it arrives:
 *   baseline   the ticker piped straight into this process
 *   od run     through `dist/od run --json` stdout
 *   od serve   through `dist/od serve` to an SSE client (POST /api/chat)
 * at a low rate (one event every 10 ms) and at full speed (blocking writes,
 * back-to-back). The three paths run interleaved per repetition.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "../helpers.ts";
import { BUN, chat, claudeStream, drain, fakeBin, isolatedEnv, lineSplitter, OD, serve, TICKER } from "./fakes.ts";
import { type Figure, figure, median, percentile } from "./stats.ts";

const MARK = /@(\d+(?:\.\d+)?)#(\d+);/;

/** Latency of every stamped text delta seen in a chunked stream (`delta` tells a delta line; a closing summary may repeat the stamps). */
function collector(delta: string) {
  const latencies: number[] = [];
  let first = Number.NaN;
  let last = Number.NaN;
  const onChunk = lineSplitter((line, at) => {
    const m = line.includes(delta) ? MARK.exec(line) : null;
    if (!m) return;
    if (Number.isNaN(first)) first = Number(m[1]);
    last = at;
    latencies.push(at - Number(m[1]));
  });
  /** Events per second from the first write to the last arrival. */
  const rate = () => latencies.length / ((last - first) / 1000);
  return { latencies, onChunk, rate };
}

type Path = "baseline" | "od run" | "od serve";

export async function benchLatency(opts: { reps: number; lowCount: number; lowIntervalMs: number; fullCount: number }): Promise<Figure[]> {
  await using tmp = tmpdir("od-bench-latency-");
  const specFile = join(tmp.path, "tick.json");
  const env = isolatedEnv(tmp.path, { TICK_SPEC: specFile });
  fakeBin(join(tmp.path, "bin"), "claude", `exec "${BUN}" "${TICKER}"`);
  const stream = claudeStream();
  const server = await serve(env, 4, tmp.path);

  const once = async (path: Path, count: number, intervalMs: number) => {
    writeFileSync(specFile, JSON.stringify({ ...stream, count, intervalMs }));
    // The ticker's own record, or od's event (JSON line or SSE data line).
    const c = collector(path === "baseline" ? '"text_delta"' : '"type":"text.delta"');
    if (path === "baseline") {
      const p = Bun.spawn([BUN, TICKER], { env, stdout: "pipe", stderr: "ignore", stdin: "ignore" });
      await drain(p.stdout, c.onChunk);
      await p.exited;
    } else if (path === "od run") {
      const p = Bun.spawn([OD, "run", "--json", "--agent", "claude", "--cwd", tmp.path, "hi"], {
        env,
        stdout: "pipe",
        stderr: "ignore",
        stdin: "ignore",
      });
      await drain(p.stdout, c.onChunk);
      await p.exited;
    } else {
      await chat(server, { agent: "claude", prompt: "hi", cwd: tmp.path }, c.onChunk);
    }
    if (c.latencies.length !== count) throw new Error(`${path}: ${c.latencies.length} of ${count} stamped events arrived`);
    return { median: median(c.latencies), p99: percentile(c.latencies, 99), rate: c.rate() };
  };

  const out: Figure[] = [];
  try {
    for (const [rate, count, interval] of [
      ["low rate", opts.lowCount, opts.lowIntervalMs],
      ["full speed", opts.fullCount, 0],
    ] as const) {
      const got: Record<Path, { median: number[]; p99: number[]; rate: number[] }> = {
        baseline: { median: [], p99: [], rate: [] },
        "od run": { median: [], p99: [], rate: [] },
        "od serve": { median: [], p99: [], rate: [] },
      };
      const paths: Path[] = ["baseline", "od run", "od serve"];
      await once("od run", Math.min(count, 50), interval); // warm the page cache and the server
      for (let rep = 0; rep < opts.reps; rep++) {
        for (const path of paths.map((_, i) => paths[(i + rep) % paths.length]!)) {
          const r = await once(path, count, interval);
          got[path].median.push(r.median);
          got[path].p99.push(r.p99);
          got[path].rate.push(r.rate);
        }
      }
      const label = rate === "low rate" ? `${rate} (${count} events, 1 per ${interval} ms)` : `${rate} (${count} events)`;
      for (const path of ["baseline", "od run", "od serve"] as const) {
        out.push(figure("2 latency", `${label}: ${path} median`, "ms", got[path].median));
        out.push(figure("2 latency", `${label}: ${path} p99`, "ms", got[path].p99));
        if (rate === "full speed") out.push(figure("2 latency", `${label}: ${path} throughput`, "events/s", got[path].rate));
      }
      for (const path of ["od run", "od serve"] as const) {
        const added = got[path].median.map((m, i) => m - got.baseline.median[i]!);
        out.push(figure("2 latency", `${label}: ${path} added median`, "ms", added, { target: "< 1 ms", met: median(added) < 1 }));
      }
    }
  } finally {
    await server.stop();
  }
  return out;
}
