/**
 * Finding a bare command name on Windows the way cmd.exe does: PATH directory
 * by directory, each one tried with every PATHEXT extension in order. Pure but
 * for the injected file test, so it runs on any host with Windows paths.
 */
import { statSync } from "node:fs";
import { win32 } from "node:path";
import type { Env } from "../contract/request.ts";
import { envValue } from "./windows.ts";

/** The extensions CreateProcess (or ComSpec, for batch files) can start, in cmd.exe's default order. */
export const SPAWNABLE_EXTENSIONS = [".COM", ".EXE", ".BAT", ".CMD"] as const;

/**
 * `%PATHEXT%` kept to what od can start, in the user's order; the default when
 * it is unset or names none of them. `.JS`, `.VBS` and friends need a host
 * program, so they are left out.
 */
export function pathExtensions(env: Env): string[] {
  const declared = (envValue(env, "PATHEXT") ?? "")
    .split(";")
    .map((e) => e.trim().toUpperCase())
    .filter((e): e is (typeof SPAWNABLE_EXTENSIONS)[number] => (SPAWNABLE_EXTENSIONS as readonly string[]).includes(e));
  const unique = [...new Set(declared)];
  return unique.length ? unique : [...SPAWNABLE_EXTENSIONS];
}

/** PATH's directories: split on `;`, surrounding quotes removed, blanks skipped. */
export function pathDirectories(env: Env): string[] {
  return (envValue(env, "PATH") ?? "")
    .split(";")
    .map((d) => d.trim().replace(/^"(.*)"$/, "$1"))
    .filter((d) => d.length > 0);
}

/**
 * The file names to try for `name` in one directory: the name itself when it
 * already ends in a spawnable extension, else the name with each extension.
 * An extension-less file (npm's POSIX shell shim next to its `.cmd`) is never
 * a candidate: Windows cannot start it.
 */
export function nameCandidates(name: string, env: Env): string[] {
  const exts = pathExtensions(env);
  if (exts.includes(win32.extname(name).toUpperCase())) return [name];
  return exts.map((ext) => name + ext.toLowerCase());
}

/**
 * The full path `name` resolves to, or undefined. A name with a directory part
 * is tried only where it points; a bare name is searched on PATH (not in the
 * current directory: od never starts a program from the project it works on).
 */
export function whichWindows(name: string, env: Env, isFile: (path: string) => boolean = fileExists): string | undefined {
  if (!name) return undefined;
  const names = nameCandidates(name, env);
  if (/[\\/]/.test(name)) return names.find(isFile);
  for (const dir of pathDirectories(env)) {
    for (const file of names) {
      const candidate = win32.join(dir, file);
      if (isFile(candidate)) return candidate;
    }
  }
  return undefined;
}

function fileExists(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
