import { OdError } from "../contract/errors.ts";
import { DEFAULT_MAX_LINE_BYTES, type Frame, TailBuffer } from "./lines.ts";
import { type OutPipe, outPipe } from "./out-pipe.ts";
import { DEFAULT_LADDER, killGroup, type Ladder } from "./process-group.ts";
import { framesPerTurn, QUIET_AFTER_EXIT_MS, STDERR_AFTER_EXIT_MS, untilQuiet } from "./quiet.ts";
import { forksSoFar, noteSpawned, OWNER_MARKER, RUN_MARKER, runMark, type Since } from "./reap.ts";
import { ensureSentinel, ownerMark } from "./sentinel.ts";
import { comSpecOf, windowsLaunch } from "./windows.ts";

export interface SpawnSpec {
  /** Executable first, then its arguments. Never a shell string. */
  cmd: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  /** A string is written to stdin, which is then closed; "pipe" keeps it open for a protocol. */
  stdin?: string | "pipe";
  maxLineBytes?: number;
  stderrTailBytes?: number;
  /** Sees each stderr chunk as it comes (a remote wrapper reports its process group there). */
  onStderr?: (chunk: Uint8Array) => void;
}

export interface Exit {
  exitCode: number | null;
  signal: string | null;
}

/** Closes od's end of a pipe whose process was collected before anyone started reading its lines. */
const unread = new FinalizationRegistry<OutPipe>((pipe) => pipe.close());

/** A running agent: its own process group, framed stdout, a bounded stderr tail. */
export class AgentProcess {
  private readonly proc: Bun.Subprocess<"pipe" | "ignore", "pipe" | number, "pipe">;
  /** stdout, when od made the pipe (Linux); otherwise Bun's. */
  private readonly pipe: OutPipe | undefined;
  private readonly tail: TailBuffer;
  private readonly stderrDone: Promise<void>;
  readonly exited: Promise<Exit>;
  /** Where a reap of what it leaves behind may begin (marked.ts): its pid, and the kernel's count of processes just before it. */
  readonly since: Since | undefined;

  constructor(private readonly spec: SpawnSpec) {
    const pipe = outPipe();
    let proc: AgentProcess["proc"];
    const forks = forksSoFar();
    try {
      proc = spawn(spec, pipe?.childFd);
    } catch (err) {
      pipe?.close();
      throw err;
    }
    pipe?.spawned();
    this.since = forks === undefined ? undefined : { pid: proc.pid, forks };
    if (pipe) unread.register(this, pipe, pipe);
    this.pipe = pipe;
    const tail = new TailBuffer(spec.stderrTailBytes);
    this.proc = proc;
    this.tail = tail;
    const exited = proc.exited.then(async () => {
      // The leader is gone; anything it left in its group (tool subprocesses) goes too,
      // which also closes the pipes they hold. Output already written stays readable.
      await killGroup(proc.pid, { intMs: 0, termMs: 300, killMs: 1000 });
      const signal = proc.signalCode;
      return { exitCode: proc.exitCode, signal: signal === null || signal === undefined ? null : String(signal) };
    });
    this.exited = exited;
    // Like stdout, stderr ends with the group even if a process that left it holds the pipe: a read
    // pending on it would keep od's descriptor, and `od run` itself, alive for as long as that process.
    this.stderrDone = (async () => {
      for await (const chunk of untilQuiet(proc.stderr, exited, QUIET_AFTER_EXIT_MS, STDERR_AFTER_EXIT_MS)) {
        spec.onStderr?.(chunk);
        tail.push(chunk);
      }
    })().catch(() => {});
  }

  get pid(): number {
    return this.proc.pid;
  }

  /** A variable of the agent's environment as od gave it: how a run's mark is read back (reap.ts). */
  envValue(key: string): string | undefined {
    return this.spec.env[key];
  }

  /**
   * stdout as bounded lines; read once. Ending the iteration, or breaking out of it, closes od's end.
   * The lines end when stdout closes, or once the agent's whole group is gone and a read has waited
   * QUIET_AFTER_EXIT_MS for nothing: a process that left the group (a daemon) may hold it open for ever.
   */
  async *lines(): AsyncGenerator<Frame> {
    for await (const frames of this.frames()) yield* frames;
  }

  /** `lines`, one array per chunk read (what the drive stage takes: a step per chunk, not per line). */
  async *frames(): AsyncGenerator<Frame[]> {
    if (this.pipe) unread.unregister(this.pipe);
    const stdout = this.pipe?.read() ?? (this.proc.stdout as ReadableStream<Uint8Array>);
    try {
      yield* framesPerTurn(stdout, this.exited, this.spec.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
    } finally {
      this.pipe?.close();
    }
  }

  /** Writes one protocol message (a JSON line) to a kept-open stdin. */
  send(message: unknown): void {
    this.write(`${JSON.stringify(message)}\n`);
  }

  /** Writes raw text to a kept-open stdin (a remote wrapper's prompt). */
  write(text: string): void {
    const sink = this.proc.stdin;
    if (!sink || typeof sink === "number") return;
    try {
      sink.write(text);
      sink.flush();
    } catch {
      // The child closed its stdin; its exit will tell the rest.
    }
  }

  closeStdin(): void {
    const sink = this.proc.stdin;
    if (!sink || typeof sink === "number") return;
    try {
      sink.end();
    } catch {}
  }

  /**
   * The end of stderr once it is read to its end. The wait is bounded: a
   * process that left the group (a daemon the agent started) may hold stderr
   * open for ever. The bound is generous because a busy machine reads late,
   * and the tail is what names an expired login.
   */
  async stderrTail(): Promise<string> {
    await Promise.race([this.stderrDone, Bun.sleep(1000)]);
    return this.tail.text();
  }

  /** SIGKILL to the whole group at once, for when od itself is exiting and cannot wait. */
  killNow(): void {
    try {
      process.kill(-this.pid, "SIGKILL");
    } catch {}
  }

  /** SIGINT, SIGTERM, SIGKILL to the whole group, each with a bounded wait. */
  async cancel(ladder: Ladder = DEFAULT_LADDER): Promise<void> {
    this.closeStdin();
    await killGroup(this.pid, ladder);
  }
}

function spawn(spec: SpawnSpec, stdoutFd?: number) {
  const stdin = spec.stdin === undefined ? "ignore" : spec.stdin === "pipe" ? "pipe" : new Blob([spec.stdin]);
  // On Windows a .cmd/.bat shim runs through ComSpec, built by the function the budget guard measures.
  const launch = process.platform === "win32" ? windowsLaunch(spec.cmd, comSpecOf(spec.env)) : undefined;
  ensureSentinel(); // before the agent: od may die the moment it is started
  const runId = spec.env[RUN_MARKER];
  noteSpawned(runId === undefined ? undefined : runMark(runId, ownerMark()));
  try {
    return Bun.spawn(launch?.cmd ?? spec.cmd, {
      windowsVerbatimArguments: launch?.verbatim,
      cwd: spec.cwd,
      // Every agent carries its od's mark, and so does all it starts: what the sentinel ends if od is killed.
      env: { ...spec.env, ...launch?.env, [OWNER_MARKER]: ownerMark() },
      stdin: stdin as "pipe" | "ignore",
      stdout: stdoutFd ?? "pipe",
      stderr: "pipe",
      detached: true, // setsid: the child leads its own process group
      // Read the pipes as the pipeline asks, not ahead of it: 128 children writing at full speed to a
      // reader spending 3 µs a line peaked at 192 MiB without this and 150 MiB with it.
      lazy: true,
    });
  } catch (err) {
    throw spawnError(spec, err);
  }
}

function spawnError(spec: SpawnSpec, err: unknown): OdError {
  const e = err as NodeJS.ErrnoException;
  const bin = spec.cmd[0] ?? "";
  if (e?.code === "ENOENT")
    return new OdError(
      "AGENT_NOT_FOUND",
      `Cannot start ${bin}: no such executable or working directory (${spec.cwd})`,
      "Check that the agent is installed and that --cwd exists.",
    );
  if (e?.code === "EACCES")
    return new OdError("SPAWN_FAILED", `Cannot start ${bin}: permission denied`, `Make it executable: chmod +x ${bin}`);
  return new OdError("SPAWN_FAILED", `Cannot start ${bin}: ${e?.message ?? String(err)}`);
}
