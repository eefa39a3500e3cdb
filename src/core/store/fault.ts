import { closeSync, openSync, rmSync, statfsSync, writeSync } from "node:fs";
import { join } from "node:path";
import { OdError } from "../contract/errors.ts";

/** How the store writes bytes to a file descriptor (the whole of `bytes` from `offset`, or what it could): `fs.writeSync` unless a test injects a failing disk. */
export type WriteFn = (fd: number, bytes: Uint8Array, offset: number) => number;

export const writeBytes: WriteFn = (fd, bytes, offset) => writeSync(fd, bytes, offset);

/** The store's own I/O, injectable: a test simulates a full disk through it. */
export interface StoreIo {
  write?: WriteFn;
}

const FULL = new Set(["ENOSPC", "EDQUOT", "EFBIG"]);
const DENIED = new Set(["EACCES", "EPERM", "EROFS"]);

/**
 * A failure of od's own storage (OD_HOME) as an error, not a bug: what could
 * not be written, the system's reason, and what the user can do about it.
 */
export function storageError(err: unknown, what: string): OdError {
  if (err instanceof OdError) return err;
  const code = (err as NodeJS.ErrnoException)?.code ?? "";
  const reason = err instanceof Error ? err.message : String(err);
  const hint = FULL.has(code)
    ? "The disk holding OD_HOME is full: free some space (old runs live in OD_HOME/runs), or point OD_HOME at another disk."
    : DENIED.has(code)
      ? "od cannot write there: make it writable, or point OD_HOME at a writable directory."
      : code === "ENOTDIR" || code === "EISDIR"
        ? "A file or directory stands where od keeps the other kind: move it away, or point OD_HOME elsewhere."
        : "Check the disk holding OD_HOME, or point OD_HOME at another directory.";
  return new OdError("STORAGE", `Cannot write ${what}: ${reason}`, hint, { cause: err });
}

/** Free space below which a disk that has failed is still taken as full: a run writes more than that in seconds. */
export const MIN_FREE_BYTES = 8 * 1024 * 1024;

/**
 * Whether storage works (again, after a failure): a small write under `dir`
 * (made, written and removed) succeeds, and the disk has `minFree` bytes
 * free. Throws STORAGE when not.
 */
export function probeStorage(dir: string, opts: { io?: StoreIo; minFree?: number; what?: string } = {}): void {
  const { io = {}, minFree = 0, what = dir } = opts;
  const path = join(dir, `.probe-${process.pid}`);
  try {
    const fs = statfsSync(dir);
    const free = Number(fs.bavail) * Number(fs.bsize);
    if (free < minFree)
      throw Object.assign(new Error(`ENOSPC: ${Math.floor(free / 1024)} KiB free, less than ${minFree / 1024 / 1024} MiB`), {
        code: "ENOSPC",
      });
    const fd = openSync(path, "w");
    try {
      const bytes = new Uint8Array(4096).fill(10);
      for (let done = 0; done < bytes.length; ) done += (io.write ?? writeBytes)(fd, bytes, done);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    throw storageError(err, what);
  } finally {
    try {
      rmSync(path, { force: true });
    } catch {}
  }
}
