import { readFileSync } from "node:fs";
import { exitReapNeeded, marksReadable, OWNER_MARKER, RUN_MARKER, reap, reapNow } from "./reap.ts";
import { helperPath } from "./sandbox/helper.ts";

/**
 * What ends od's agents when nothing of od runs any more (SIGKILL, the OOM
 * killer): one small process per od, started the first time od spawns an
 * agent. It is the sandbox helper (`od-sandbox --reap OD_OWNER=<owner>`, a
 * static C program: a millisecond to start, under 1 MB resident), or where od
 * has no helper (built without a C compiler) od's own binary in a hidden mode
 * (`od __reap <owner>`); never a shell. It runs in a session of its own (so
 * neither a terminal's signals nor a signal to an agent's group reach it), and
 * it holds one end of a socket whose other end only od holds (Bun gives a
 * child nothing but its stdio). When od dies, however it dies, the kernel
 * closes od's end; the sentinel reads EOF, ends every process carrying od's
 * owner mark, and exits. On a normal exit od does that itself as it leaves,
 * and ends the sentinel. od never waits for it. Linux only, like the marks it
 * reaps by (reap.ts); elsewhere nothing is started.
 */

/** The hidden command src/main.ts dispatches to `sentinelMain`. */
export const SENTINEL_COMMAND = "__reap";

let owner: string | undefined;
let sentinel: Bun.Subprocess<"pipe", "ignore", "ignore"> | undefined;
let exitHooked = false;

/** This od's owner mark: set in every agent's environment, and what the sentinel ends them by. */
export function ownerMark(): string {
  owner ??= `${process.pid}-${Buffer.from(crypto.getRandomValues(new Uint8Array(6))).toString("hex")}`;
  return owner;
}

/** The command that runs this od again: a compiled od is its own binary; from source, bun runs src/main.ts. */
export function selfCommand(): string[] {
  if (Bun.main.startsWith("/$bunfs/")) return [process.execPath];
  return [process.execPath, Bun.fileURLToPath(new URL("../../main.ts", import.meta.url))];
}

/**
 * Starts the sentinel unless one is running; called before each agent is
 * spawned (cheap once it runs). Never throws: without a sentinel od still
 * runs, only its own SIGKILL is no longer covered.
 */
export function ensureSentinel(): void {
  if (!marksReadable || sentinelPid() !== undefined) return;
  // Not the marks: a run's reap must not end the sentinel of an od that an agent started (it is that od's safety).
  const { [RUN_MARKER]: _run, [OWNER_MARKER]: _owner, ...env } = process.env;
  try {
    sentinel = Bun.spawn(sentinelCommand(), {
      cwd: "/",
      env,
      stdin: "pipe",
      stdout: "ignore",
      stderr: "ignore",
      detached: true,
    });
    // Kept referenced here (a collected socket would close, and the sentinel would take that for od's death), but never waited for.
    sentinel.unref();
    sentinel.stdin.unref();
    // On a normal exit od does the sentinel's work itself, at once (anything still carrying its mark goes),
    // and ends the sentinel, which is then never seen outliving od, not even for the moment it takes to notice.
    if (!exitHooked) {
      exitHooked = true;
      process.once("exit", () => {
        const pid = sentinelPid();
        if (pid === undefined) return;
        // Every run reaped clean (reap.ts): nothing carries the mark, and the walk of /proc is saved.
        if (exitReapNeeded()) reapNow([[`${OWNER_MARKER}=${ownerMark()}`]]);
        try {
          process.kill(pid, "SIGKILL");
        } catch {}
        // A signal is delivered when the process is next scheduled: on a busy machine, wait (briefly) until it has died.
        for (const until = Date.now() + 500; Date.now() < until && !gone(pid); ) Bun.sleepSync(1);
      });
    }
  } catch {
    sentinel = undefined;
  }
}

/** The helper's reap when od has its helper, else od itself in its hidden mode. */
function sentinelCommand(): string[] {
  const helper = helperPath();
  if ("path" in helper) return [helper.path, "--reap", `${OWNER_MARKER}=${ownerMark()}`];
  return [...selfCommand(), SENTINEL_COMMAND, ownerMark()];
}

/** The running sentinel's pid, if one runs. */
export function sentinelPid(): number | undefined {
  return sentinel && sentinel.exitCode === null && sentinel.signalCode === null ? sentinel.pid : undefined;
}

/** The sentinel itself: waits for od's end of the socket to close, then ends what carries `mark`. */
export async function sentinelMain(mark: string | undefined): Promise<void> {
  if (!mark) process.exit(2);
  try {
    for await (const _ of Bun.stdin.stream());
  } catch {}
  await reap([[`${OWNER_MARKER}=${mark}`]]);
  process.exit(0);
}

/** Dead (a zombie until reaped) or no longer there. */
function gone(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.startsWith("Z") ?? true;
  } catch {
    return true;
  }
}
