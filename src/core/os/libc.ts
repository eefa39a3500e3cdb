import type { FFIFunction } from "bun:ffi";

/** The C library's file names, by platform; none where od does not call it (Windows). */
const NAMES = process.platform === "darwin" ? ["libSystem.B.dylib"] : process.platform === "linux" ? ["libc.so.6", "libc.so"] : [];

/**
 * The C library with the given symbols bound, for the few calls Node's API lacks (flock,
 * getrlimit, openat2...); undefined where it cannot be loaded, or lacks one of them. bun:ffi is
 * required here, not imported: loading it costs a command that never calls C (od agents) ~3 ms.
 */
export function openLibc<const S extends Record<string, FFIFunction>>(symbols: S) {
  const { dlopen } = require("bun:ffi") as typeof import("bun:ffi");
  for (const name of NAMES) {
    try {
      return dlopen(name, symbols).symbols;
    } catch {} // not this name (or no such symbol): try the next
  }
  return undefined;
}
