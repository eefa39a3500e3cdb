/**
 * What the supervision tests share: the compiled od started the way a user
 * starts it, and an oracle for "which processes are left", independent of od's
 * own marker: every fake agent (and whatever it starts) carries its script's
 * path in FAKE_SCRIPT; od itself is started without it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DIST_OD, type FakeStep, installFake } from "../helpers.ts";

/** Live (non-zombie) processes whose environment holds exactly `entry` ("KEY=value"). */
export function processesWith(entry: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!readFileSync(`/proc/${name}/environ`, "latin1").split("\0").includes(entry)) continue;
      const stat = readFileSync(`/proc/${name}/stat`, "latin1");
      if (stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z") found.push(Number(name));
    } catch {}
  }
  return found;
}

/** Polls `check` until it holds or `ms` pass; returns its last value. Never a sleep as an assertion. */
export async function until<T>(check: () => T, ok: (value: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  let value = check();
  while (!ok(value) && Date.now() < deadline) {
    await Bun.sleep(25);
    value = check();
  }
  return value;
}

/** SIGKILL to whatever a test left (so a failing test leaks nothing). */
/** The pids `list` finds, once none is left or `ms` (default 3 s) is spent: what a test expects to be []. */
export function gone(list: () => number[], ms = 3000): Promise<number[]> {
  return until(list, (l) => l.length === 0, ms);
}

export function killAll(pids: number[]): void {
  for (const pid of pids)
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
}

/** A fake agent in `dir`, and the environment od is started with: PATH to it, a private home, no FAKE_* of its own. */
export function fakeFor(dir: string, name: string, script: FakeStep[]) {
  const fake = installFake(dir, name, script);
  const { FAKE_SCRIPT, FAKE_RECORD, ...odEnv } = fake.env;
  return { ...fake, odEnv: { NO_COLOR: "1", ...odEnv }, marker: `FAKE_SCRIPT=${FAKE_SCRIPT}`, home: `OD_HOME=${odEnv.OD_HOME}` };
}

/** Reads a stream as text until `done(text)` holds; returns what was read and the reader, to go on. */
export async function readUntil(stream: ReadableStream<Uint8Array>, done: (text: string) => boolean) {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!done(text)) {
    const next = await reader.read();
    if (next.done) break;
    text += decoder.decode(next.value, { stream: true });
  }
  return { text, reader };
}

/** `dist/od serve --port 0` on `env`'s OD_HOME; resolves once it prints its URL. */
export async function startServe(env: Record<string, string>) {
  const p = Bun.spawn([DIST_OD, "serve", "--port", "0"], { env, stdout: "pipe", stderr: "ignore" });
  const { text } = await readUntil(p.stdout, (t) => t.includes("\n"));
  const [, url, token] = text.match(/(http:\/\/\S+?)\?token=(\S+)/) ?? [];
  if (!url || !token) throw new Error(`od serve printed no URL: ${text}`);
  const api = (path: string, init: RequestInit = {}) =>
    fetch(new URL(`api${path}`, url), { ...init, headers: { "x-od-token": token, "content-type": "application/json" } });
  return { p, api };
}

/** The sentinel od started, if any: a child of `pid` run as the helper's `--reap` (or od's own `__reap`). */
export function sentinelOf(pid: number): number | undefined {
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "latin1");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (
        ppid === pid &&
        readFileSync(join("/proc", name, "cmdline"), "latin1")
          .split("\0")
          .some((arg) => arg === "--reap" || arg === "__reap")
      )
        return Number(name);
    } catch {}
  }
  return undefined;
}
