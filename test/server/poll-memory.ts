/**
 * A measurement, not a test: the peak RSS of `od serve` while one run writes a large log, with and
 * without a client polling GET /api/runs/:id and GET /api/runs all the while.
 *
 *   bun test/server/poll-memory.ts [od binary = dist/od] [log MB = 200] [ms between polls = 0]
 *
 * Prints one line per mode: the log size, the server's peak RSS (VmHWM), the run's duration and how
 * many polls were answered (and their slowest answer).
 */
import { closeSync, fstatSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DIST_OD } from "../helpers.ts";

const od = resolve(process.argv[2] ?? DIST_OD);
// The bench's `serve` runs $OD_BENCH_OD, read when its module loads.
process.env.OD_BENCH_OD = od;
const { claudeStream, fakeBin, isolatedEnv, serve } = await import("../bench/fakes.ts");
const megabytes = Number(process.argv[3] ?? 200);
const pauseMs = Number(process.argv[4] ?? 0);

/** A Claude stream whose text deltas log about `megabytes` MB of events. */
async function streamFile(path: string): Promise<void> {
  const s = claudeStream();
  const [before, after] = s.delta.split("@@TEXT@@") as [string, string];
  const text = "lorem ipsum dolor sit amet ".repeat(16);
  const n = Math.ceil((megabytes * 1e6) / (text.length + 160)); // a text.delta logs its text and about 160 bytes more
  const writer = Bun.file(path).writer();
  writer.write(`${s.head.join("\n")}\n`);
  for (let i = 0; i < n; i++) writer.write(`${before}#${i} ${text}${after}\n`);
  writer.write(`${s.tail.join("\n")}\n`);
  await writer.end();
}

/** Whether a log's last line is its run.finished (read from its end, as the script's own look, not the server's). */
function finished(path: string): boolean {
  try {
    const fd = openSync(path, "r");
    const buf = Buffer.alloc(4096);
    const got = readSync(fd, buf, 0, buf.length, Math.max(0, fstatSync(fd).size - buf.length));
    closeSync(fd);
    return buf.toString("utf8", 0, got).includes('"type":"run.finished"');
  } catch {
    return false;
  }
}

const peakRss = (pid: number) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

async function measure(dir: string, poll: boolean) {
  const home = mkdtempSync(join(dir, "home-"));
  const env = isolatedEnv(dir, { OD_HOME: home });
  const cwd = mkdtempSync(join(dir, "work-")); // the agent's working directory: empty, so the run's end has no files to look at
  const server = await serve(env, 1, cwd);
  const api = (path: string, init: RequestInit = {}) =>
    fetch(new URL(`api${path}`, server.url), { ...init, headers: { "x-od-token": server.token, "content-type": "application/json" } });
  const started = performance.now();
  const res = await api("/runs", { method: "POST", body: JSON.stringify({ agent: "claude", prompt: "hi", cwd }) });
  const { runId } = (await res.json()) as { runId: string };
  let polls = 0;
  let slowest = 0;
  let peak = 0;
  for (;;) {
    peak = Math.max(peak, peakRss(server.pid));
    const t = performance.now();
    if (poll) {
      const { status } = (await (await api(`/runs/${runId}`)).json()) as { status: string };
      await (await api("/runs")).json();
      polls++;
      slowest = Math.max(slowest, performance.now() - t);
      if (pauseMs) await Bun.sleep(pauseMs);
      if (status !== "running") break;
    } else {
      await Bun.sleep(100);
      if (finished(join(home, "runs", runId, "events.jsonl"))) break;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  peak = Math.max(peak, peakRss(server.pid));
  const size = statSync(join(home, "runs", runId, "events.jsonl")).size / 1e6;
  await server.stop();
  return {
    poll: poll ? `every ${pauseMs} ms` : "none",
    logMB: Math.round(size),
    peakRssMB: Math.round(peak),
    seconds: +seconds.toFixed(1),
    polls,
    slowestPollMs: Math.round(slowest),
  };
}

const dir = mkdtempSync(join(tmpdir(), "od-poll-"));
try {
  const file = join(dir, "stream.jsonl");
  await streamFile(file);
  fakeBin(join(dir, "bin"), "claude", `exec cat "${file}"`);
  for (const poll of [false, true]) console.log(JSON.stringify({ od, ...(await measure(dir, poll)) }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
