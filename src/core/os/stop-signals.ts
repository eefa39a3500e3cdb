import { readFileSync } from "node:fs";

/**
 * The signals that stop od the way Ctrl-C does (cancel every run, let each
 * finish, then exit), and the exit code each gives: 128 + the signal's number,
 * as a shell reports a process the signal ended. SIGHUP is the terminal going
 * away (a closed window, a dropped SSH session); SIGTERM is `kill`, a service
 * manager, a container stopping.
 */
export const STOP_SIGNALS = { SIGINT: 130, SIGHUP: 129, SIGTERM: 143 } as const;
export type StopSignal = keyof typeof STOP_SIGNALS;

/**
 * Calls `onStop(signal, count)` on each stop signal, `count` the signals seen so
 * far (a second one means: leave now). Returns the uninstall. A hangup that was
 * ignored when od started (`nohup od ...`) stays ignored: that is what the user asked.
 */
export function onStopSignals(onStop: (signal: StopSignal, count: number) => void): () => void {
  let count = 0;
  const installed: Array<[StopSignal, () => void]> = [];
  for (const signal of Object.keys(STOP_SIGNALS) as StopSignal[]) {
    if (signal === "SIGHUP" && hangupIgnored()) continue;
    const handler = () => onStop(signal, ++count);
    try {
      process.on(signal, handler);
      installed.push([signal, handler]);
    } catch {} // a signal this platform does not have
  }
  return () => {
    for (const [signal, handler] of installed) process.off(signal, handler);
  };
}

let ignored: boolean | undefined;

/** Whether SIGHUP was ignored at start: Linux lists ignored signals in /proc/self/status (SigIgn, bit 0 is SIGHUP). Read before od handles it. */
function hangupIgnored(): boolean {
  if (ignored !== undefined) return ignored;
  ignored = false;
  if (process.platform !== "linux") return ignored;
  try {
    const mask = /^SigIgn:\s*([0-9a-f]+)$/m.exec(readFileSync("/proc/self/status", "utf8"))?.[1];
    ignored = mask !== undefined && (Number.parseInt(mask.slice(-1), 16) & 1) === 1;
  } catch {}
  return ignored;
}
