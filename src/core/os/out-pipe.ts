import { dlopen, FFIType, ptr } from "bun:ffi";
import { closeSync } from "node:fs";

/**
 * How many bytes of an agent's stdout may wait for od. An agent that writes
 * faster than od reads fills whatever lies between them, and each event then
 * waits behind all of it. Bun gives a child a socket pair, which holds about
 * 300 of Claude's stream records (208 KiB of buffer): 2–3 ms of waiting at full
 * speed. One page (4 KiB, the smallest pipe Linux makes) holds about 14: a fast
 * agent is made to wait for od sooner. Against 8 KiB (bench section 2, four
 * pairs of runs taking turns), added latency at full speed: `od run` 0.23 ms
 * (0.21–0.25) against 0.36 (0.33–0.39), `od serve` 0.31 (0.29–0.52) against
 * 0.50 (0.45–0.52). The price is more, smaller reads when output comes in
 * bulk: a flooding agent gets ~15% fewer events/s through, and 128 runs
 * `cat`-ing their streams ~20% fewer. No agent writes near either rate;
 * latency is what a user sees.
 */
export const AGENT_STDOUT_PIPE_BYTES = 4 * 1024;

const O_CLOEXEC = 0o2000000;
const F_SETPIPE_SZ = 1031;

/** An agent's stdout: the end the child writes to (given to spawn), and od's end, read as a stream. */
export interface OutPipe {
  /** For `Bun.spawn({ stdout })`; closed in od once the child has it. */
  readonly childFd: number;
  /** After spawn: od keeps only its reading end, so the stream ends when the agent's side closes. */
  spawned(): void;
  /**
   * od's end as a stream (once); nothing watches the pipe before this is called. Bun reads from a
   * duplicate of the fd, which it closes itself a few turns of the loop after the stream ends.
   */
  read(): ReadableStream<Uint8Array>;
  /** Closes od's end (idempotent); a stream from `read` must be done or cancelled first. */
  close(): void;
}

type Libc = { pipe2(fds: number, flags: number): number; fcntl(fd: number, cmd: number, arg: number): number };
let libc: Libc | null | undefined;

function loadLibc(): Libc | null {
  if (libc !== undefined) return libc;
  try {
    libc = dlopen("libc.so.6", {
      pipe2: { args: [FFIType.ptr, FFIType.i32], returns: FFIType.i32 },
      fcntl: { args: [FFIType.i32, FFIType.i32, FFIType.i32], returns: FFIType.i32 },
    }).symbols as unknown as Libc;
  } catch {
    libc = null;
  }
  return libc;
}

/**
 * A pipe(2) of `bytes` for an agent's stdout, on Linux, where a pipe's size can
 * be set; elsewhere (or if libc refuses) undefined, and the caller keeps Bun's
 * own pipe. The agent also gets what a shell would give it: a real pipe, which
 * /dev/stdout opens and which raises SIGPIPE, not a socket.
 */
export function outPipe(bytes = AGENT_STDOUT_PIPE_BYTES): OutPipe | undefined {
  if (process.platform !== "linux") return undefined;
  const c = loadLibc();
  if (!c) return undefined;
  const fds = new Int32Array(2);
  // Close-on-exec: another agent spawned meanwhile must not inherit either end (spawn's dup2 gives the child its own).
  if (c.pipe2(ptr(fds) as unknown as number, O_CLOEXEC) !== 0) return undefined;
  const [readFd, writeFd] = [fds[0]!, fds[1]!];
  c.fcntl(writeFd, F_SETPIPE_SZ, bytes); // best effort: an unprivileged size above the system's maximum is refused
  const open = new Set([readFd, writeFd]);
  const closeFd = (fd: number) => {
    if (!open.delete(fd)) return;
    try {
      closeSync(fd);
    } catch {}
  };
  return {
    childFd: writeFd,
    read: () => Bun.file(readFd).stream(),
    spawned: () => closeFd(writeFd),
    close: () => {
      closeFd(writeFd);
      closeFd(readFd);
    },
  };
}
