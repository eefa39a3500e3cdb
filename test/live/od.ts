// Drives the compiled `dist/od run --json` for the live lane and collects its JSON events.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { OdEvent } from "../../src/core/contract/events.ts";
import { descendants, procInfo } from "./procs.ts";

export const ROOT = resolve(import.meta.dir, "../..");
export const DIST_OD = join(ROOT, "dist/od");

/** The --timeout every live run gets: od ends a stalled agent itself, well before the lane's watchdog would. */
export const OD_TIMEOUT_S = 40;
/** How long after od's own --timeout the watchdog waits before it calls od hung. */
const WATCHDOG_AFTER_TIMEOUT_MS = 15_000;

/** Runs whose agent stalled until od ended it at its --timeout: what the lane saw just before. */
export const stalls: string[] = [];

export type Ev<T extends OdEvent["type"] = OdEvent["type"]> = Extract<OdEvent, { type: T }>;

export interface OdResult {
  events: OdEvent[];
  /** stdout lines that were not JSON (there must be none with --json). */
  junk: string[];
  stderr: string;
  exitCode: number | null;
  signal: string | null;
  ms: number;
  /** True when the lane's own watchdog had to kill od. */
  killed: boolean;
  /** What the watchdog saw before it killed: od's state, its processes, the events so far. */
  hang?: string;
  /** Set when od ended the agent at its --timeout: od's message and the processes just before. */
  stalled?: string;
  of<T extends OdEvent["type"]>(type: T): Ev<T>[];
  finished?: Ev<"run.finished">;
  text: string;
}

export interface RunningOd {
  pid: number;
  /** Events so far (grows while od runs). */
  events: OdEvent[];
  signal(sig: NodeJS.Signals): void;
  done: Promise<OdResult>;
}

/**
 * Spawns `dist/od run --json <args>` with exactly `env`; the watchdog SIGKILLs od after `timeoutMs`
 * (by default 15 s after od's own --timeout, so that a stalled agent is od's to end, not the lane's).
 */
export function startOd(args: string[], o: { env: Record<string, string>; cwd: string; timeoutMs?: number }): RunningOd {
  const t0 = performance.now();
  const at = args.indexOf("--timeout");
  const odTimeoutMs = at >= 0 ? Number(args[at + 1]) * 1000 : undefined;
  const proc = Bun.spawn([DIST_OD, "run", "--json", ...args], { env: o.env, cwd: o.cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const events: OdEvent[] = [];
  const junk: string[] = [];
  let killed = false;
  let hang: string | undefined;
  const watchdog = setTimeout(
    () => {
      killed = true;
      hang = hangReport(proc.pid, events);
      proc.kill("SIGKILL");
    },
    o.timeoutMs ?? (odTimeoutMs ? odTimeoutMs + WATCHDOG_AFTER_TIMEOUT_MS : 45_000),
  );
  // Just before od's own --timeout, what the agent is doing: od kills it a moment later.
  let beforeTimeout: string | undefined;
  const probe = odTimeoutMs ? setTimeout(() => (beforeTimeout = hangReport(proc.pid, events)), odTimeoutMs - 1500) : undefined;

  const take = (line: string) => {
    if (!line.trim()) return;
    try {
      events.push(JSON.parse(line) as OdEvent);
    } catch {
      junk.push(line);
    }
  };
  const readStdout = (async () => {
    const decoder = new TextDecoder();
    let buf = "";
    for await (const chunk of proc.stdout) {
      buf += decoder.decode(chunk, { stream: true });
      let i: number;
      while ((i = buf.indexOf("\n")) >= 0) {
        take(buf.slice(0, i));
        buf = buf.slice(i + 1);
      }
    }
    take(buf + decoder.decode());
  })();
  const done = (async (): Promise<OdResult> => {
    const [stderr] = await Promise.all([new Response(proc.stderr).text(), readStdout, proc.exited]);
    clearTimeout(watchdog);
    clearTimeout(probe);
    const of = <T extends OdEvent["type"]>(type: T) => events.filter((e): e is Ev<T> => e.type === type);
    const timedOut = of("error").find((e) => e.code === "TIMEOUT");
    const stalled = timedOut && `${timedOut.message}\n${beforeTimeout ?? "(no snapshot)"}`;
    if (stalled) stalls.push(stalled);
    return {
      events,
      junk,
      stderr,
      exitCode: proc.exitCode,
      signal: proc.signalCode == null ? null : String(proc.signalCode),
      ms: Math.round(performance.now() - t0),
      killed,
      hang,
      stalled,
      of,
      finished: of("run.finished").at(-1),
      text: of("text.delta")
        .map((e) => e.text)
        .join(""),
    };
  })();
  return { pid: proc.pid, events, signal: (sig) => proc.kill(sig), done };
}

/** od's own state, each process under it (state, kernel wait channel, command) and the event types so far. */
function hangReport(pid: number, events: OdEvent[]): string {
  const line = (p: { pid: number; state: string; cmdline: string }) => {
    let wchan = "?";
    try {
      wchan = readFileSync(`/proc/${p.pid}/wchan`, "utf8") || "-";
    } catch {}
    return `${p.pid} ${p.state} ${wchan} ${p.cmdline.slice(0, 120)}`;
  };
  const od = procInfo(pid);
  const types = events.map((e) => e.type).filter((t, i, all) => t !== all[i - 1]);
  return [
    `od ${od ? line(od) : "had exited (its stdout or stderr still open)"}`,
    ...descendants(pid).map((p) => `  ${line(p)}`),
    `events (${events.length}): ${types.join(" ").slice(-400) || "none"}`,
  ].join("\n");
}

export function runOd(args: string[], o: { env: Record<string, string>; cwd: string; timeoutMs?: number }): Promise<OdResult> {
  return startOd(args, o).done;
}

/** Polls `cond` every 20 ms until it holds; throws `what` after `timeoutMs`. */
export async function waitFor(cond: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await Bun.sleep(20);
  }
}

/** Newest mtime under a directory (files only), for the "is dist/od stale?" check. */
function newest(dir: string): number {
  let max = 0;
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const s = statSync(join(dir, name));
    if (s.isFile()) max = Math.max(max, s.mtimeMs);
  }
  return max;
}

/** Builds dist/od when it is missing or older than src/ or plugins/, so the lane never tests a stale binary. */
export async function ensureBuilt(): Promise<string> {
  const stale = !existsSync(DIST_OD) || statSync(DIST_OD).mtimeMs < Math.max(newest(join(ROOT, "src")), newest(join(ROOT, "plugins")));
  if (!stale) return "dist/od is up to date";
  const proc = Bun.spawn(["npm", "run", "build"], { cwd: ROOT, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (proc.exitCode !== 0) throw new Error(`npm run build failed:\n${`${out}\n${err}`.trim().split("\n").slice(-10).join("\n")}`);
  return "rebuilt dist/od";
}

/** Adapter ids the compiled od knows (`od plugins --json`), asked with a clean environment. */
export async function odAdapterIds(env: Record<string, string>): Promise<string[]> {
  const proc = Bun.spawn([DIST_OD, "plugins", "--json"], { env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [out] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  const parsed = JSON.parse(out) as { adapters: Array<{ id: string }> };
  return parsed.adapters.map((a) => a.id);
}
