import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { OdError } from "../core/contract/errors.ts";
import { probeStorage, storageError } from "../core/store/fault.ts";
import { tryLock } from "./libc.ts";

/** OD_HOME exists (or is made) and takes a write; else a STORAGE error that says which and why, never a stack trace. */
export function checkHome(home: string): void {
  try {
    mkdirSync(home, { recursive: true });
  } catch (err) {
    throw storageError(err, `OD_HOME (${home})`);
  }
  probeStorage(home, { what: `OD_HOME (${home})` });
}

/**
 * One live server per OD_HOME: the run log and the token file are its own; a
 * second server would mark the first one's live runs as failed. The claim is
 * an exclusive flock on `server.lock`, held while the server lives: the
 * kernel drops it when the process dies, so a dead server's claim is never in
 * the way, whatever process now has its pid. `server.pid` names the owner for
 * people and messages. Without flock (Windows) the pid file is the claim, a
 * live pid in it the owner.
 */
export function claimHome(home: string): () => void {
  const pidFile = join(home, "server.pid");
  const lockFile = join(home, "server.lock");
  let fd: number;
  try {
    fd = openSync(lockFile, "a", 0o600);
  } catch (err) {
    throw storageError(err, lockFile);
  }
  const locked = tryLock(fd);
  const owner = readPid(pidFile);
  if (locked === false || (locked === undefined && owner !== undefined && owner !== process.pid && isAlive(owner))) {
    closeSync(fd);
    throw new OdError(
      "INVALID_REQUEST",
      `Another od serve${owner ? ` (pid ${owner})` : ""} is using ${home}`,
      "Stop that server first, or give this one its own OD_HOME.",
    );
  }
  try {
    writeFileSync(pidFile, `${process.pid}\n`);
  } catch (err) {
    closeSync(fd);
    throw storageError(err, pidFile);
  }
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    try {
      if (readPid(pidFile) === process.pid) rmSync(pidFile, { force: true });
    } catch {}
    closeSync(fd);
  };
}

function readPid(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, "utf8"), 10);
    return pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM"; // alive, but another user's
  }
}
