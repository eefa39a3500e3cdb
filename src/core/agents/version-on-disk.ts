/**
 * An installed CLI's version read from its install, without starting it: a
 * real Node CLI's `--version` costs 0.3–2 s of CPU, its package.json a read.
 * Two layouts say it: an npm package (the bin links or a shim leads to the
 * package's entry file; the nearest package.json named as the adapter's
 * `detect.npmPackage` holds the version) and a versioned install folder
 * (`…/claude/versions/2.1.3`, `…/cursor-agent/versions/<v>/cursor-agent`).
 * The answer is given only when it is the version that would run: the file
 * has an interpreter there, Node meets the package's `engines.node`, and no
 * newer self-update waits in `detect.updateDirs`. Otherwise undefined, and od
 * asks `--version`.
 */
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join } from "node:path";
import type { Adapter } from "../contract/adapter.ts";
import type { Env } from "../contract/request.ts";
import { findOnPath } from "../os/resolve.ts";
import { homePath } from "./auth-on-disk.ts";
import { resolveShimTarget } from "./npm-shim.ts";

export interface DiskVersion {
  version: string;
  from: "package" | "install-dir";
}

export interface DiskContext {
  env: Env;
  home: string;
  /** `<node> --version` ("v22.1.0"), asked at most once per interpreter in one detection. */
  nodeVersion(node: string): Promise<string | undefined>;
  platform?: NodeJS.Platform;
  /** Told when the package's `engines.node` asks for a newer Node than the one that would run it. */
  oldNode?(found: OldNode): void;
}

/** A package whose `engines.node` the Node that would run it does not meet: whether it runs anyway, only running it tells. */
export interface OldNode {
  pkg: string;
  version: string;
  engines: string;
  node: string;
  program: string;
}

interface Package {
  name: string;
  version: string;
  engines?: { node?: unknown };
}

const VERSION = /^v?(\d+(?:\.\d+)+[\w.+-]*)$/;

export async function versionOnDisk(adapter: Adapter, bin: string, ctx: DiskContext): Promise<DiskVersion | undefined> {
  const real = realpathOr(bin);
  const npm = adapter.detect.npmPackage;
  if (npm) {
    const found = npmEntry(real, npm, ctx.platform ?? process.platform);
    if (found) return (await trusted(adapter, found, ctx)) ? { version: found.pkg.version, from: "package" } : undefined;
  }
  const version = installDirVersion(real, [adapter.bin, ...adapter.fallbackBins]);
  if (version && interpreter(real, undefined, ctx) !== null) return { version, from: "install-dir" };
  return undefined;
}

/**
 * A Node executable's version read from its install, not by running it: the version folder
 * above its `bin` (nvm's `…/v22.1.0/bin/node`, fnm, Volta, asdf), else the `include/node/node_version.h`
 * installed with it (the official tarball, NodeSource and distribution packages, Homebrew). As "v22.1.0".
 */
export function nodeVersionOnDisk(node: string): string | undefined {
  const real = realpathOr(node);
  const bin = dirname(real);
  if (basename(bin) !== "bin") return undefined;
  const folder = basename(dirname(bin)).match(/^(?:node-)?v?(\d+\.\d+\.\d+)(?:-[\w.-]+)?$/)?.[1];
  if (folder) return `v${folder}`;
  let header: string;
  try {
    header = readFileSync(join(dirname(bin), "include", "node", "node_version.h"), "utf8");
  } catch {
    return undefined;
  }
  const part = (name: string) => header.match(new RegExp(`#define NODE_${name}_VERSION (\\d+)`))?.[1];
  const [major, minor, patch] = [part("MAJOR"), part("MINOR"), part("PATCH")];
  return major && minor && patch ? `v${major}.${minor}.${patch}` : undefined;
}

/** The version in a versioned install folder: `<name>/versions/<version>`, as the file itself or its folder. */
export function installDirVersion(realPath: string, names: string[]): string | undefined {
  const parts = realPath.split(/[\\/]/);
  for (let i = 2; i < parts.length; i++) {
    if (parts[i - 1] !== "versions" || !names.includes(parts[i - 2]!)) continue;
    const m = parts[i]!.match(VERSION);
    if (m) return m[1];
  }
  return undefined;
}

/** The package a bin belongs to, through its real path or the shim it is. */
function npmEntry(real: string, name: string, platform: NodeJS.Platform): { entry: string; pkg: Package; shimDir?: string } | undefined {
  const direct = findPackage(dirname(real), name);
  if (direct) return { entry: real, pkg: direct };
  const text = readShim(real);
  const target = text ? resolveShimTarget(real, text, platform) : undefined;
  if (!target) return undefined;
  const entry = realpathOr(target);
  const pkg = findPackage(dirname(entry), name);
  return pkg ? { entry, pkg, shimDir: dirname(real) } : undefined;
}

/** The nearest package.json named `name` above `dir`, within the package (never past a node_modules folder). */
export function findPackage(dir: string, name: string): Package | undefined {
  for (let depth = 0; depth < 8 && basename(dir) !== "node_modules"; depth++) {
    try {
      const data = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Record<string, unknown>;
      if (data?.name === name && typeof data.version === "string") return data as unknown as Package;
    } catch {}
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return undefined;
}

async function trusted(adapter: Adapter, found: { entry: string; pkg: Package; shimDir?: string }, ctx: DiskContext): Promise<boolean> {
  if (newerUpdate(adapter.detect.updateDirs ?? [], found.pkg.version, ctx)) return false;
  const program = interpreter(found.entry, found.shimDir, ctx);
  if (program === null) return false;
  const range = found.pkg.engines?.node;
  if (program === "native" || !/^node(js)?(\.exe)?$/i.test(basename(program)) || typeof range !== "string") return true;
  const node = (await ctx.nodeVersion(program))?.match(VERSION)?.[1];
  if (!node) return false;
  let met: boolean;
  try {
    met = Bun.semver.satisfies(node, range);
  } catch {
    return true; // a range Bun cannot read says nothing either way
  }
  if (!met) ctx.oldNode?.({ pkg: found.pkg.name, version: found.pkg.version, engines: range, node: `v${node}`, program });
  return met;
}

/** A version folder newer than the package's in one of the CLI's self-update folders (`<dir>/<v>` or `<dir>/<platform>/<v>`). */
function newerUpdate(specs: string[], version: string, ctx: DiskContext): boolean {
  const newer = (name: string) => VERSION.test(name) && compareVersions(name.replace(/^v/, ""), version) > 0;
  for (const spec of specs) {
    const dir = homePath(spec, ctx.env, ctx.home);
    if (!dir) continue;
    for (const name of list(dir)) {
      if (VERSION.test(name) ? newer(name) : list(join(dir, name)).some(newer)) return true;
    }
  }
  return false;
}

/**
 * What runs `file`: "native" for an executable format, the interpreter's path
 * for a script (its `#!` line; Node for a shim's JS entry, beside the shim or on
 * PATH), null when there is none, so the file cannot start as installed.
 */
function interpreter(file: string, shimDir: string | undefined, ctx: DiskContext): string | "native" | null {
  const head = readHead(file);
  if (!head) return null;
  if (isNative(head)) return "native";
  if (shimDir) {
    const beside = ["node", "node.exe"].map((n) => join(shimDir, n)).find((p) => existsSync(p));
    return beside ?? findOnPath("node", ctx.env, ctx.platform) ?? null;
  }
  if (head[0] !== 0x23 || head[1] !== 0x21) return null; // no #!: exec would refuse it
  const words = Buffer.from(head).toString("utf8").split("\n")[0]!.slice(2).trim().split(/\s+/);
  const program = basename(words[0] ?? "") === "env" ? words.slice(1).find((w) => !w.startsWith("-") && !w.includes("=")) : words[0];
  if (!program) return null;
  if (isAbsolute(program)) return existsSync(program) ? program : null;
  return findOnPath(program, ctx.env, ctx.platform) ?? null;
}

/** ELF, PE or Mach-O: a file exec starts as it is. */
export function isNative(head: Uint8Array): boolean {
  const magic = Buffer.from(head.subarray(0, 4)).toString("hex");
  return magic === "7f454c46" || magic.startsWith("4d5a") || ["feedface", "feedfacf", "cefaedfe", "cffaedfe", "cafebabe"].includes(magic);
}

function readHead(file: string): Uint8Array | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const buf = new Uint8Array(256);
    return buf.subarray(0, readSync(fd, buf, 0, 256, 0));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A small text file that may be a shim (npm's are under 1 KiB; a binary or a bundle is neither). */
function readShim(file: string): string | undefined {
  try {
    if (statSync(file).size > 16 * 1024) return undefined;
    const text = readFileSync(file, "utf8");
    return text.includes("\0") ? undefined : text;
  } catch {
    return undefined;
  }
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Numeric dotted comparison; pre-release tails are ignored. */
export function compareVersions(a: string, b: string): number {
  const [pa, pb] = [a, b].map((v) =>
    v
      .split(/[^\d.]/)[0]!
      .split(".")
      .map(Number),
  ) as [number[], number[]];
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d) return Math.sign(d);
  }
  return 0;
}
