import { lstatSync, mkdirSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Sandbox } from "./choose.ts";
import { helperPath } from "./helper.ts";
import { seatbeltCommand } from "./seatbelt.ts";

/**
 * A sandboxed run's launch: its private temp folder and the CLI's state folders made, and the
 * command that holds the agent to the policy. The helper (Linux) or sandbox-exec (macOS) starts
 * first and execs the agent, which keeps the pid, the process group and the pipes od gave it.
 */

/** Where a run's private temp folder will be: a name no other run has (made at launch, not planned). */
export const plannedTmp = (runKey: string) => join(tmpdir(), `od-run-${runKey}`);

/** The environment that sends temp files to the run's private folder. */
export const tmpEnv = (tmp: string) => ({ TMPDIR: tmp, TMP: tmp, TEMP: tmp });

export interface Prepared {
  cmd: string[];
  /** Removes the private temp folder once the agent is gone. */
  cleanup(): void;
}

/**
 * Makes the folders the policy names (the private temp folder, mode 0700, must be new; a missing
 * state folder of the CLI is created as the CLI would) and returns the command to spawn.
 */
export function prepareSandbox(sandbox: Sandbox, cmd: string[], tmp: string | undefined, stateDirs: string[]): Prepared {
  const policy = sandbox.policy;
  if (!policy || (sandbox.kind !== "landlock" && sandbox.kind !== "seatbelt")) return { cmd, cleanup() {} };
  if (tmp) mkdirSync(tmp, { mode: 0o700 });
  const cleanup = () => tmp && rmSync(tmp, { recursive: true, force: true });
  try {
    const refused = stateDirs.filter((dir) => !makeStateDir(dir));
    const held = refused.length ? { ...policy, writable: policy.writable.filter((p) => !refused.includes(p)) } : policy;
    return { cmd: sandbox.kind === "landlock" ? landlockCommand(held, cmd) : seatbeltCommand(realPaths(held), cmd), cleanup };
  } catch (err) {
    cleanup();
    throw err;
  }
}

/**
 * Makes a state folder of the CLI as the CLI would. One in a folder everyone may write (/tmp) must be
 * a real folder of this user's, made now or before: a link or a folder someone else put there (to have
 * od grant what it leads to) is not granted. False when it is not to be granted.
 */
function makeStateDir(dir: string): boolean {
  let shared = false;
  try {
    shared = (statSync(dirname(dir)).mode & 0o1002) === 0o1002; // sticky and world-writable
  } catch {}
  if (!shared) {
    mkdirSync(dir, { recursive: true });
    return true;
  }
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch {} // there already: checked below
  try {
    const st = lstatSync(dir);
    return st.isDirectory() && st.uid === process.getuid?.();
  } catch {
    return false;
  }
}

function landlockCommand(policy: { writable: string[]; readOnly: string[] }, cmd: string[]): string[] {
  // The run's plan decided what the kernel holds; running the helper needs only its path (no probe).
  const helper = helperPath();
  if ("reason" in helper) throw new Error(`the sandbox helper is gone: ${helper.reason}`);
  return [helper.path, ...policy.writable.flatMap((p) => ["-w", p]), ...policy.readOnly.flatMap((p) => ["-p", p]), "--", ...cmd];
}

/** Seatbelt matches resolved paths: each one resolved where it exists. */
function realPaths(policy: { writable: string[]; readOnly: string[] }) {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  return { writable: policy.writable.map(real), readOnly: policy.readOnly.map(real) };
}
