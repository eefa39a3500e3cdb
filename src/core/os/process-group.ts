import { readdirSync, readFileSync } from "node:fs";

/**
 * An agent's process group: who is still in it, and the signal ladder that
 * ends it. Everything an agent starts shares its group, so cancelling the group
 * also stops the tools it left running.
 */

/** Waits of the cancel ladder: after SIGINT, after SIGTERM, after SIGKILL. */
export interface Ladder {
  intMs: number;
  termMs: number;
  killMs: number;
}
export const DEFAULT_LADDER: Ladder = { intMs: 1500, termMs: 1500, killMs: 1000 };

/**
 * Live (non-zombie) members of a process group, read from /proc. A group the kernel no longer
 * knows (ESRCH to signal 0, the usual answer once an agent is done) has none, and costs no
 * walk of /proc: that reads a stat file per process on the machine, hundreds of them.
 */
export function groupMembers(pgid: number): number[] {
  if (!groupExists(pgid)) return [];
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return groupMembersBySignal(pgid);
  }
  const members: number[] = [];
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // pid (comm) state ppid pgrp ...; comm may contain spaces and parens.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === pgid && fields[0] !== "Z") members.push(Number(name));
    } catch {}
  }
  return members;
}

/** Whether any process (a zombie too) is in the group: only ESRCH says none; EPERM means someone is. */
function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

function groupMembersBySignal(pgid: number): number[] {
  try {
    process.kill(-pgid, 0);
    return [pgid];
  } catch {
    return [];
  }
}

/** The cancel ladder on a process group; resolves once no live member remains or SIGKILL's wait ends. */
export async function killGroup(pgid: number, ladder: Ladder = DEFAULT_LADDER): Promise<void> {
  const steps: Array<[NodeJS.Signals, number]> = [
    ["SIGINT", ladder.intMs],
    ["SIGTERM", ladder.termMs],
    ["SIGKILL", ladder.killMs],
  ];
  for (const [signal, waitMs] of steps) {
    if (groupMembers(pgid).length === 0) return;
    if (waitMs <= 0 && signal !== "SIGKILL") continue;
    try {
      process.kill(-pgid, signal);
    } catch {
      return; // ESRCH: the group is gone
    }
    const deadline = Date.now() + waitMs;
    while (Date.now() < deadline) {
      if (groupMembers(pgid).length === 0) return;
      await Bun.sleep(25);
    }
  }
}
