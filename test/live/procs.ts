// /proc helpers for the live lane: which processes a run started, and which of them survived it.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

export interface ProcInfo {
  pid: number;
  ppid: number;
  state: string;
  /** Start time in clock ticks since boot: tells a survivor from a re-used pid. */
  start: string;
  cmdline: string;
}

export function procInfo(pid: number): ProcInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime priority nice threads itreal starttime
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
    return { pid, ppid: Number(f[1]), state: f[0] ?? "?", start: f[19] ?? "", cmdline };
  } catch {
    return undefined;
  }
}

function allPids(): number[] {
  return readdirSync("/proc")
    .filter((n) => /^\d+$/.test(n))
    .map(Number);
}

/** Every live descendant of `root` (not `root` itself). */
export function descendants(root: number): ProcInfo[] {
  const infos = allPids()
    .map(procInfo)
    .filter((p): p is ProcInfo => p !== undefined);
  const out: ProcInfo[] = [];
  const parents = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of infos) {
      if (!parents.has(p.pid) && parents.has(p.ppid)) {
        parents.add(p.pid);
        out.push(p);
        grew = true;
      }
    }
  }
  return out;
}

function alive(p: ProcInfo): boolean {
  const now = procInfo(p.pid);
  return now !== undefined && now.start === p.start && now.state !== "Z";
}

/** Does this process belong to the run: its cmdline, working directory or HOME names one of `marks`? */
function marked(pid: number, marks: string[], home: string): boolean {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    if (marks.some((m) => cmdline.includes(m))) return true;
    const cwd = readlinkSync(`/proc/${pid}/cwd`);
    if (marks.some((m) => cwd === m || cwd.startsWith(`${m}/`))) return true;
    const environ = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
    return environ.includes(`HOME=${home}`);
  } catch {
    return false;
  }
}

/** Whether a process belongs to a run: its cmdline or cwd names the run's HOME or work dir, or it has that HOME. */
export function ofRun(pid: number, o: { home: string; work: string }): boolean {
  return marked(pid, [o.home, o.work], o.home);
}

/**
 * Processes of a run still alive: those of `snapshot` (taken while it ran), and any process at
 * all whose cmdline, cwd or environment names the run's fresh HOME or work dir.
 */
export function survivors(snapshot: ProcInfo[], o: { home: string; work: string }): ProcInfo[] {
  const found = new Map<number, ProcInfo>();
  for (const p of snapshot) if (alive(p)) found.set(p.pid, p);
  for (const pid of allPids()) {
    if (pid === process.pid || found.has(pid)) continue;
    const info = procInfo(pid);
    if (info && info.state !== "Z" && ofRun(pid, o)) found.set(pid, info);
  }
  return [...found.values()];
}

/** Cleanup after a failed test: SIGKILL, by pid, whatever of the run is left. */
export function killAll(procs: ProcInfo[]): void {
  for (const p of procs) {
    try {
      if (alive(p)) process.kill(p.pid, "SIGKILL");
    } catch {}
  }
}
