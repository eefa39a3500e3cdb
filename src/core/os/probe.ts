import { availableParallelism, tmpdir } from "node:os";
import { killGroup } from "./process-group.ts";

export interface ProbeResult {
  exitCode: number | null;
  /** stdout and stderr together (several CLIs print versions and lists on stderr), escapes stripped, bounded. */
  output: string;
  timedOut: boolean;
  /** The executable could not be started at all (ENOENT, EACCES). */
  failedToStart: boolean;
}

const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

/** Escape sequences out, CR-overwrites resolved to their last state, so catalogs parse as plain text. */
export function stripTerminal(text: string): string {
  return text
    .replace(ANSI, "")
    .split("\n")
    .map((line) => line.split("\r").filter(Boolean).at(-1) ?? "")
    .join("\n");
}

/**
 * At most `size` holders at once; the rest wait in order. A real CLI's
 * `--version` costs up to 2 s of CPU: started all at once on a busy machine,
 * probes only queue behind each other inside the kernel, and each one's time
 * limit runs out while it waits. Queued here, a probe's clock starts when it runs.
 */
export class Slots {
  #free: number;
  readonly #waiting: Array<() => void> = [];

  constructor(readonly size: number) {
    this.#free = Math.max(1, Math.floor(size));
  }

  async run<T>(f: () => Promise<T>): Promise<T> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await f();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free++;
    }
  }
}

/** The slots every probe of this process shares: one per core. */
export const PROBE_SLOTS = new Slots(availableParallelism());

/**
 * Runs one short, non-interactive command (`--version`, `auth status`, a model
 * catalog) with stdin closed, in its own process group, killed at the time limit,
 * its output capped. Never throws. It first waits for one of `slots` (default:
 * one per core, shared by the process); `timeoutMs` counts from its start.
 */
export function probe(cmd: string[], opts: ProbeOptions): Promise<ProbeResult> {
  return (opts.slots ?? PROBE_SLOTS).run(() => probeNow(cmd, opts));
}

export interface ProbeOptions {
  env: Record<string, string | undefined>;
  timeoutMs: number;
  maxBytes?: number;
  cwd?: string;
  slots?: Slots;
}

async function probeNow(cmd: string[], opts: ProbeOptions): Promise<ProbeResult> {
  const maxBytes = opts.maxBytes ?? 1024 * 1024;
  let proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  try {
    // A neutral folder: a probe must not read (or write) the user's project.
    proc = Bun.spawn(cmd, { env: opts.env, cwd: opts.cwd ?? tmpdir(), stdin: "ignore", stdout: "pipe", stderr: "pipe", detached: true });
  } catch {
    return { exitCode: null, output: "", timedOut: false, failedToStart: true };
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(proc.pid, { intMs: 0, termMs: 200, killMs: 500 });
  }, opts.timeoutMs);
  const read = async (stream: ReadableStream<Uint8Array>) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of stream) {
      if (size < maxBytes) chunks.push(chunk.subarray(0, maxBytes - size));
      size += chunk.length;
    }
    return Buffer.concat(chunks).toString("utf8");
  };
  const [out, err] = await Promise.all([read(proc.stdout), read(proc.stderr), proc.exited]);
  clearTimeout(timer);
  await killGroup(proc.pid, { intMs: 0, termMs: 200, killMs: 500 }); // anything it left behind
  return { exitCode: timedOut ? null : proc.exitCode, output: stripTerminal(`${out}\n${err}`).trim(), timedOut, failedToStart: false };
}
