import { availableParallelism, tmpdir } from "node:os";
import { killGroup } from "./process-group.ts";
import { Slots } from "./slots.ts";

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

let shared: Slots | undefined;

/**
 * The slots every probe of this process shares, one per core: a real CLI's `--version` costs up
 * to 2 s of CPU, and started all at once on a busy machine each one's time limit would run out
 * while it waits in the kernel; queued here, a probe's clock starts when it runs. Made when first
 * asked for (counting the cores loads Node's os module, a cost to every start that probes nothing).
 */
export function probeSlots(): Slots {
  shared ??= new Slots(availableParallelism());
  return shared;
}

/**
 * Runs one short, non-interactive command (`--version`, `auth status`, a model
 * catalog) with stdin closed, in its own process group, killed at the time limit,
 * its output capped. Never throws. It first waits for one of `slots` (default:
 * one per core, shared by the process); `timeoutMs` counts from its start.
 */
export function probe(cmd: string[], opts: ProbeOptions): Promise<ProbeResult> {
  return (opts.slots ?? probeSlots()).run(() => probeNow(cmd, opts));
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
