import { openLibc } from "./libc.ts";

let libc: { isatty: (fd: number) => number } | undefined | null;

/**
 * Whether descriptor `fd` is a terminal: the C library's isatty(3), else Node's. Asking
 * `process.stderr.isTTY` builds Node's stream for it (and node:stream with it): ~13 ms of a
 * compiled od's CPU, as much as the rest of a run's start; `node:tty`'s isatty ~5 ms; the C call
 * through bun:ffi well under 1 ms (compiled probes, 40 starts each). bun:ffi is loaded when first
 * asked (libc.ts), by a command that prints.
 */
export function isTerminal(fd: number): boolean {
  if (libc === undefined) libc = openLibc({ isatty: { args: ["i32"], returns: "i32" } }) ?? null;
  if (libc) return libc.isatty(fd) === 1;
  return (require("node:tty") as typeof import("node:tty")).isatty(fd);
}
