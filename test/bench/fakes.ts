/** Fake agent CLIs, a real Claude stream to feed them, and a real `od serve` to drive: shared by the benchmarks. */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DIST_OD, FIXTURES, ROOT } from "../helpers.ts";

/** The od binary under test: dist/od, or $OD_BENCH_OD (another build, e.g. to measure a proposed fix). */
export const OD = process.env.OD_BENCH_OD ?? DIST_OD;

export const BUN = process.execPath;
export const TICKER = join(ROOT, "test/bench/bin/ticker.ts");

/** Writes an executable `#!/bin/sh` script `name` into `binDir`. */
export function fakeBin(binDir: string, name: string, body: string): string {
  mkdirSync(binDir, { recursive: true });
  const exe = join(binDir, name);
  writeFileSync(exe, `#!/bin/sh\n${body}\n`);
  chmodSync(exe, 0o755);
  return exe;
}

/** The environment of an isolated od: its own HOME and OD_HOME, fakes first on PATH. */
export function isolatedEnv(dir: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: `${join(dir, "bin")}:/usr/bin:/bin`, HOME: dir, OD_HOME: join(dir, ".od"), NO_COLOR: "1", ...extra };
}

export interface ClaudeStream {
  head: string[];
  /** One text_delta record with "@@TEXT@@" where the text goes. */
  delta: string;
  tail: string[];
}

/** Claude Code's real stream-json (test/fixtures/claude/plain.jsonl), cut into opening, one delta, closing. */
export function claudeStream(): ClaudeStream {
  const lines = readFileSync(join(FIXTURES, "claude/plain.jsonl"), "utf8").trim().split("\n");
  const isDelta = (l: string) => l.includes('"content_block_delta"');
  const first = lines.findIndex(isDelta);
  const last = lines.findLastIndex(isDelta);
  const record = JSON.parse(lines[first]!);
  record.event.delta.text = "@@TEXT@@";
  // The complete `assistant` wrapper would repeat every delta's text in one line: a real CLI's is as long as the answer.
  const tail = lines.slice(last + 1).filter((l) => !l.startsWith('{"type":"assistant"'));
  return { head: lines.slice(0, first), delta: JSON.stringify(record), tail };
}

/** A whole Claude stream of `n` text deltas whose texts are "#<i>;" (for the scale run's loss and order check). */
export function claudeStreamFile(path: string, n: number): string {
  const s = claudeStream();
  const [before, after] = s.delta.split("@@TEXT@@") as [string, string];
  const out: string[] = [...s.head];
  for (let i = 0; i < n; i++) out.push(`${before}#${i};${after}`);
  out.push(...s.tail);
  writeFileSync(path, `${out.join("\n")}\n`);
  return path;
}

export interface Served {
  url: string;
  token: string;
  pid: number;
  proc: Bun.Subprocess;
  stop(): Promise<void>;
}

/** `dist/od serve` on a free loopback port; resolves once it printed its URL. */
export async function serve(env: Record<string, string>, maxRuns: number, cwd: string): Promise<Served> {
  const proc = Bun.spawn([OD, "serve", "--port", "0", "--max-runs", String(maxRuns)], {
    env,
    cwd,
    stdout: "pipe",
    stderr: "ignore",
    stdin: "ignore",
  });
  const reader = proc.stdout.getReader();
  let text = "";
  const deadline = Date.now() + 15_000;
  while (!text.includes("\n") && Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const m = text.match(/(http:\/\/\S+?)\?token=(\S+)/);
  if (!m) {
    proc.kill();
    throw new Error(`od serve did not print its URL: ${text}`);
  }
  return {
    url: m[1]!,
    token: m[2]!,
    pid: proc.pid,
    proc,
    async stop() {
      proc.kill("SIGTERM");
      await Promise.race([proc.exited, Bun.sleep(10_000)]);
      if (proc.exitCode === null) proc.kill("SIGKILL");
    },
  };
}

/** POST /api/chat (start a run and stream it) and hand every received chunk to `onChunk` with its arrival time. */
export async function chat(s: Served, body: unknown, onChunk: (text: string, at: number) => void): Promise<void> {
  const res = await fetch(new URL("api/chat", s.url), {
    method: "POST",
    headers: { "x-od-token": s.token, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok || !res.body) throw new Error(`POST /api/chat: ${res.status} ${await res.text()}`);
  const decoder = new TextDecoder();
  for await (const chunk of res.body) onChunk(decoder.decode(chunk, { stream: true }), performance.timeOrigin + performance.now());
}

/** Reads a child's stdout, handing each chunk (decoded) to `onChunk` with its arrival time. */
export async function drain(stream: ReadableStream<Uint8Array>, onChunk: (text: string, at: number) => void): Promise<void> {
  const decoder = new TextDecoder();
  for await (const chunk of stream) onChunk(decoder.decode(chunk, { stream: true }), performance.timeOrigin + performance.now());
}

/** Splits chunks into complete lines, holding a partial last line for the next chunk. */
export function lineSplitter(onLine: (line: string, at: number) => void): (text: string, at: number) => void {
  let rest = "";
  return (text, at) => {
    const parts = (rest + text).split("\n");
    rest = parts.pop()!;
    for (const line of parts) onLine(line, at);
  };
}
