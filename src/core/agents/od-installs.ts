/**
 * The other od installations beside this one, for `od doctor`: the ones a user may run instead
 * of it, or meant to run. "Beside" means:
 * - every `od` on PATH, every PATH directory (not only the first hit), that leads to an od
 *   install: npm's link or shim to the launcher package, a clone's `dist/od` (`npm link`), a
 *   platform package's binary;
 * - npm's global install (`$npm_config_prefix`, else the prefix of the `node` on PATH; on Windows
 *   `%APPDATA%\npm`), even when its bin folder is not on PATH.
 * Each one's version is read from its package.json, never by running it: an `od` on PATH may be
 * coreutils' octal dump, or anything else. A copy of the binary with no package.json beside it
 * has no version to read, and is left out.
 */
import { closeSync, existsSync, openSync, readSync, realpathSync } from "node:fs";
import { basename, delimiter, dirname, join, posix, win32 } from "node:path";
import type { Env } from "../contract/request.ts";
import { describeInstall, type Install, isClone, NPM_PACKAGE, readPackage } from "../os/install.ts";
import { findOnPath } from "../os/resolve.ts";
import { nameCandidates, pathDirectories } from "../os/windows-path.ts";
import { resolveShimTarget } from "./npm-shim.ts";
import { isNative } from "./version-on-disk.ts";

export interface OdInstall {
  install: Install;
  version: string;
  /** The `od` on PATH that leads to it (the first, when several do); none when only npm's prefix has it. */
  onPath?: string;
}

/** The od installs found beside `self` (itself left out), in PATH order, then npm's global one. */
export function odInstallsBeside(self: Install, env: Env = process.env, platform: NodeJS.Platform = process.platform): OdInstall[] {
  const found = new Map<string, OdInstall>([[real(self.path), { install: self, version: "" }]]);
  const add = (install: Install | undefined, onPath?: string) => {
    const version = install && installedVersion(install);
    if (install && version && !found.has(real(install.path))) found.set(real(install.path), { install, version, onPath });
  };
  for (const file of odsOnPath(env, platform)) add(identify(file, platform), file);
  const global = npmGlobalModules(env, platform);
  if (global) add(launcherAt(join(global, NPM_PACKAGE)));
  return [...found.values()].slice(1);
}

/** Every `od` in every PATH directory (on Windows through PATHEXT, and npm's `od.cmd` shim). */
function odsOnPath(env: Env, platform: NodeJS.Platform): string[] {
  if (platform === "win32") return pathDirectories(env).flatMap((d) => nameCandidates("od", env).map((n) => win32.join(d, n)));
  return (env.PATH ?? "")
    .split(delimiter)
    .filter(Boolean)
    .map((d) => posix.join(d, "od"));
}

/** What an `od` file is: a native od (its install, by where it sits), or npm's link or shim to the launcher. */
function identify(file: string, platform: NodeJS.Platform): Install | undefined {
  if (!existsSync(file)) return undefined;
  const target = real(file);
  if (isNative(readHead(target, 4))) {
    const install = describeInstall(target, true);
    return install.kind === "binary" ? undefined : install;
  }
  const pkgDir = packageDirOf(dirname(target)) ?? packageDirOf(dirname(resolveShimTarget(file, shimText(file), platform) ?? file));
  return pkgDir ? launcherAt(pkgDir) : undefined;
}

function launcherAt(dir: string): Install | undefined {
  return readPackage(dir)?.name === NPM_PACKAGE ? { kind: "npm", package: NPM_PACKAGE, path: dir } : undefined;
}

/** The launcher package's folder at or above `dir` (`…/@od-cli/od/bin`), within that package. */
function packageDirOf(dir: string): string | undefined {
  for (let d = dir, i = 0; i < 4 && basename(d) !== "node_modules" && d !== dirname(d); d = dirname(d), i++)
    if (readPackage(d)?.name === NPM_PACKAGE) return d;
  return undefined;
}

function installedVersion(install: Install): string | undefined {
  const pkg = readPackage(install.path);
  if (install.kind === "source" && !isClone(pkg)) return undefined;
  return typeof pkg?.version === "string" ? pkg.version : undefined;
}

/** npm's global node_modules: `<prefix>/lib/node_modules` (Windows: `<prefix>\node_modules`). */
export function npmGlobalModules(env: Env, platform: NodeJS.Platform): string | undefined {
  let prefix = env.npm_config_prefix || env.NPM_CONFIG_PREFIX;
  if (!prefix && platform === "win32" && env.APPDATA) prefix = win32.join(env.APPDATA, "npm");
  if (!prefix) {
    const node = findOnPath("node", env, platform);
    if (node) prefix = dirname(dirname(real(node)));
  }
  if (!prefix) return undefined;
  return platform === "win32" ? win32.join(prefix, "node_modules") : posix.join(prefix, "lib", "node_modules");
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function shimText(file: string): string {
  return Buffer.from(readHead(file, 4096)).toString("utf8");
}

function readHead(file: string, bytes: number): Uint8Array {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const buf = new Uint8Array(bytes);
    return buf.subarray(0, readSync(fd, buf, 0, bytes, 0));
  } catch {
    return new Uint8Array();
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
