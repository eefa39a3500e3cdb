/**
 * The Wine lane's plumbing: a fixture folder (its path has a space) holding the
 * rawargs probe as `probe.exe`, a `probe.cmd` shim that forwards `%*` to it (next
 * to an extension-less decoy, like npm's POSIX shim), and the probe adapter; and
 * `runOd`, which runs the real `dist/od.exe` under Wine and returns its events
 * and what the probe reported. test/windows/lane.sh prepares Wine and the builds.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { OdEvent } from "../../src/core/contract/events.ts";

export const ROOT = resolve(import.meta.dir, "../..");
export const OD_EXE = resolve(ROOT, process.env.OD_EXE ?? "dist/od.exe");
/** A value no vector may ever show: it would mean `%OD_WINE_SECRET%` expanded. */
export const SECRET = "s3cr3t-VALUE-od-wine";

/** Z: is the Unix root in every Wine prefix. */
export const winPath = (unix: string) => `Z:${unix.replaceAll("/", "\\")}`;

export interface Probe {
  length: number;
  commandLine: string;
  argv: string[];
}

export interface OdRun {
  events: OdEvent[];
  started?: Extract<OdEvent, { type: "run.started" }>;
  error?: Extract<OdEvent, { type: "error" }>;
  finished?: Extract<OdEvent, { type: "run.finished" }>;
  /** What the probe reported, when od started it. */
  probe?: Probe;
  stderr: string;
}

export interface Fixture {
  dir: string;
  /** Windows paths of what od should resolve `probe` to, and of the probe itself. */
  exe: string;
  shim: string;
  rawargs: string;
  cleanup: () => void;
}

export function createFixture(probeExe: string): Fixture {
  const dir = mkdtempSync(join(tmpdir(), "od wine lane "));
  for (const sub of ["bin", "exe", "shim", "plugins", "home"]) mkdirSync(join(dir, sub));
  copyFileSync(probeExe, join(dir, "bin", "rawargs.exe"));
  copyFileSync(probeExe, join(dir, "exe", "probe.exe"));
  writeFileSync(join(dir, "shim", "probe.cmd"), '@echo off\r\n"%~dp0..\\bin\\rawargs.exe" %*\r\n');
  writeFileSync(join(dir, "shim", "probe"), "#!/bin/sh\necho decoy: Windows cannot start me\n");
  copyFileSync(join(import.meta.dir, "probe-plugin.js"), join(dir, "plugins", "probe.js"));
  return {
    dir,
    exe: winPath(join(dir, "exe", "probe.exe")),
    shim: winPath(join(dir, "shim", "probe.cmd")),
    rawargs: winPath(join(dir, "bin", "rawargs.exe")),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** `od run --agent probe --json <prompt>` under Wine, with `probe` found on the given folder (WINEPATH). */
export async function runOd(fx: Fixture, route: "exe" | "shim", prompt: string, comSpec?: string): Promise<OdRun> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    WINEPATH: winPath(join(fx.dir, route)),
    OD_HOME: winPath(join(fx.dir, "home")),
    OD_PLUGINS_DIR: winPath(join(fx.dir, "plugins")),
    OD_WINE_SECRET: SECRET,
    PROBE_COMSPEC: comSpec,
    NO_COLOR: "1",
  };
  // The prompt goes as an argument: od.exe's `-` (stdin) does not work from a Linux pipe or file under Wine.
  const proc = Bun.spawn(["wine", OD_EXE, "run", "--agent", "probe", "--json", prompt], {
    cwd: fx.dir,
    env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  // Wine's conhost.exe (started for the detached cmd.exe) can hold stderr open for a second after od exits: stderr is
  // diagnostics only, so it gets a short grace after the exit rather than a wait for its close.
  const stderrText = new Response(proc.stderr).text();
  const stdout = await new Response(proc.stdout).text();
  await proc.exited;
  const stderr = await Promise.race([stderrText, Bun.sleep(100).then(() => "(stderr still open)")]);
  const events = stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as OdEvent);
  const find = <T extends OdEvent["type"]>(type: T) => events.find((e): e is Extract<OdEvent, { type: T }> => e.type === type);
  const text = events.flatMap((e) => (e.type === "text.delta" ? [e.text] : [])).join("");
  return {
    events,
    started: find("run.started"),
    error: find("error"),
    finished: find("run.finished"),
    probe: text.startsWith("{") ? (JSON.parse(text) as Probe) : undefined,
    stderr,
  };
}

/** The first lines of a PE file's headers: machine, optional-header magic, subsystem. */
export function peHeader(path: string): { mz: boolean; pe: boolean; machine: number; magic: number; subsystem: number } {
  const buf = readFileSync(path).subarray(0, 4096);
  const at = buf.readUInt32LE(0x3c);
  return {
    mz: buf.toString("latin1", 0, 2) === "MZ",
    pe: buf.toString("latin1", at, at + 4) === "PE\0\0",
    machine: buf.readUInt16LE(at + 4),
    magic: buf.readUInt16LE(at + 24),
    subsystem: buf.readUInt16LE(at + 24 + 68),
  };
}

/** The ComSpec Wine gives Windows programs, asked of Wine's own cmd.exe. */
export async function wineComSpec(): Promise<string> {
  const proc = Bun.spawn(["wine", "cmd.exe", "/d", "/c", "echo %ComSpec%"], { stdout: "pipe", stderr: "ignore", stdin: "ignore" });
  return (await new Response(proc.stdout).text()).trim();
}
