/**
 * How od starts a program on Windows, as one pure function. The spawn layer
 * (process.ts) runs what `windowsLaunch` returns, and the budget guard
 * (budget.ts) measures the `commandLine` it returns, so the guard can never
 * drift from the real command line. Testable on any host with Windows paths.
 */

import type { Env } from "../contract/request.ts";
import { quoteCmdArg, quoteExeArg } from "./windows-quote.ts";

/** CreateProcess's `lpCommandLine` limit in UTF-16 units, the terminating NUL included. */
export const CREATE_PROCESS_MAX_CHARS = 32_767;
/** Room kept under CreateProcess's limit (the seeds' figure). */
export const EXE_MARGIN = 256;
/** The longest direct `.exe` command line od will start. */
export const EXE_LINE_LIMIT = CREATE_PROCESS_MAX_CHARS - EXE_MARGIN;
/** The longest line cmd.exe accepts, at its prompt and for a batch line after `%*` expansion (KB830473). */
export const CMD_EXE_MAX_CHARS = 8_191;
/**
 * Room kept under cmd.exe's limit: the shim's own batch line puts its command
 * (`"%_prog%" "%dp0%\node_modules\…\cli.js"`, about 150-350 characters once
 * expanded) in front of the forwarded `%*`.
 */
export const SHIM_MARGIN = 512;
/** The longest `.cmd`/`.bat` shim command line od will start, ComSpec path included. */
export const SHIM_LINE_LIMIT = CMD_EXE_MAX_CHARS - SHIM_MARGIN;

export interface WindowsLaunch {
  /** `shim`: a `.cmd`/`.bat` run through ComSpec; `exe`: a direct CreateProcess. */
  kind: "shim" | "exe";
  /** What to hand Bun.spawn. */
  cmd: string[];
  /** Bun.spawn's `windowsVerbatimArguments`: true means `cmd` is joined with spaces, unquoted. */
  verbatim: boolean;
  /** The exact command line CreateProcess receives. */
  commandLine: string;
  /** The longest `commandLine` od starts for this kind. */
  limit: number;
  /**
   * Added to the program's environment. For a shim, `NoDefaultCurrentDirectoryInExePath`: cmd.exe
   * otherwise looks in the current folder first for what the shim runs (`node`), and that folder is
   * the agent's working directory, someone else's repository, whose `node.cmd` would run in any mode.
   */
  env: Record<string, string>;
}

/** True for a `.cmd` or `.bat` file, which CreateProcess cannot start without cmd.exe. */
export function isBatchFile(path: string): boolean {
  return /\.(cmd|bat)$/i.test(path);
}

/** A drive path (`C:\…`, `C:/…`) or a UNC path (`\\server\share\…`). */
export function isWindowsPath(path: string): boolean {
  return /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\");
}

/**
 * The launch for `[bin, ...args]`. A batch file runs as
 * `<ComSpec> /d /s /c "<inner>"` with verbatim arguments, `inner` being every
 * token quoted by cmd rules (`/d`: no AutoRun commands; `/s`: strip exactly the
 * outer quotes). Anything else is a direct CreateProcess, quoted by libuv.
 */
export function windowsLaunch(cmd: readonly string[], comSpec: string): WindowsLaunch {
  const bin = cmd[0] ?? "";
  if (isBatchFile(bin)) {
    const inner = cmd.map(quoteCmdArg).join(" ");
    const argv = [comSpec, "/d", "/s", "/c", `"${inner}"`];
    // In verbatim mode libuv joins the tokens with single spaces and quotes nothing, argv[0] included.
    const env = { NoDefaultCurrentDirectoryInExePath: "1" };
    return { kind: "shim", cmd: argv, verbatim: true, commandLine: argv.join(" "), limit: SHIM_LINE_LIMIT, env };
  }
  return { kind: "exe", cmd: [...cmd], verbatim: false, commandLine: cmd.map(quoteExeArg).join(" "), limit: EXE_LINE_LIMIT, env: {} };
}

/**
 * The launch od would use on `platform`, or null where no Windows command line
 * exists: off Windows, for a path that is not a Windows path.
 */
export function projectLaunch(cmd: readonly string[], platform: NodeJS.Platform, env: Env): WindowsLaunch | null {
  const bin = cmd[0] ?? "";
  if (!bin || (platform !== "win32" && !isWindowsPath(bin))) return null;
  return windowsLaunch(cmd, comSpecOf(env));
}

/** The command interpreter: `%ComSpec%`, else `cmd.exe` (the same fallback for spawning and for counting). */
export function comSpecOf(env: Env): string {
  return envValue(env, "ComSpec") || "cmd.exe";
}

/** An environment variable looked up the Windows way: names are case-insensitive. */
export function envValue(env: Env, name: string): string | undefined {
  if (env[name] !== undefined) return env[name];
  const upper = name.toUpperCase();
  for (const [key, value] of Object.entries(env)) if (key.toUpperCase() === upper && value !== undefined) return value;
  return undefined;
}
