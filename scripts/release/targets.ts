/**
 * What `npm run release:pack` publishes: one launcher package with the `od` command, and one
 * package per platform holding only that platform's binary, the shape esbuild, Biome and Codex use.
 *
 * The scope: the name `od` on npm is a date library, so od's packages live under `@od-cli`. A scope
 * keeps every platform package under the same owner (nobody else can publish `@od-cli/linux-x64`,
 * where an unscoped `od-agents-linux-x64` could be taken by anyone), and it reads as what it is:
 * `npm install -g @od-cli/od`, the command still `od`.
 */

import { NPM_PACKAGE } from "../../src/core/os/install.ts";

/** The package people install; its `bin/od.js` picks the platform package. The binary knows the name too. */
export const LAUNCHER = NPM_PACKAGE;
export const SCOPE = LAUNCHER.slice(0, LAUNCHER.indexOf("/"));

export interface Target {
  /** The platform package's name after the scope: `${process.platform}-${process.arch}`, `-musl` on musl (what the launcher computes). */
  id: string;
  os: "linux" | "darwin" | "win32";
  cpu: "x64" | "arm64";
  /** Linux only: npm installs the package only where this C library is (npm 10.4+; the launcher checks again). */
  libc?: "glibc" | "musl";
  /** Bun's runtime for this platform on npm (its `bin/bun[.exe]`), at the pinned Bun's version. */
  runtime: string;
  /** `bun build --compile --target=…`. */
  bunTarget: string;
  /** Linux: the sandbox helper's architecture (built static, so one helper serves glibc and musl). */
  helper?: "x64" | "arm64";
  /** For people: the platform, in the package's description. */
  label: string;
}

export const TARGETS: readonly Target[] = [
  linux("x64", "glibc"),
  linux("x64", "musl"),
  linux("arm64", "glibc"),
  linux("arm64", "musl"),
  { id: "darwin-x64", os: "darwin", cpu: "x64", runtime: "@oven/bun-darwin-x64", bunTarget: "bun-darwin-x64", label: "macOS x64 (Intel)" },
  {
    id: "darwin-arm64",
    os: "darwin",
    cpu: "arm64",
    runtime: "@oven/bun-darwin-aarch64",
    bunTarget: "bun-darwin-arm64",
    label: "macOS arm64 (Apple silicon)",
  },
  { id: "win32-x64", os: "win32", cpu: "x64", runtime: "@oven/bun-windows-x64", bunTarget: "bun-windows-x64", label: "Windows x64" },
];

function linux(cpu: "x64" | "arm64", libc: "glibc" | "musl"): Target {
  const musl = libc === "musl" ? "-musl" : "";
  return {
    id: `linux-${cpu}${musl}`,
    os: "linux",
    cpu,
    libc,
    runtime: `@oven/bun-linux-${cpu === "arm64" ? "aarch64" : "x64"}${musl}`,
    bunTarget: `bun-linux-${cpu}${musl}`,
    helper: cpu,
    label: `Linux ${cpu} (${libc})`,
  };
}

export const packageName = (t: Target) => `${SCOPE}/${t.id}`;
/** The binary's file name, at the root of its package. */
export const binaryName = (t: Target) => (t.os === "win32" ? "od.exe" : "od");
/** The runtime package's executable, under its `bin/`. */
export const runtimeExe = (t: Target) => (t.os === "win32" ? "bun.exe" : "bun");
/** npm pack's file name for a package: `@od-cli/linux-x64` at 0.1.0 is `od-cli-linux-x64-0.1.0.tgz`. */
export const tarballName = (name: string, version: string) => `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;

/** The targets named by `--only a,b` (all when none), refusing an unknown name. */
export function selectTargets(only: string | undefined): Target[] {
  if (!only) return [...TARGETS];
  const ids = only.split(",").map((s) => s.trim());
  const unknown = ids.filter((id) => !TARGETS.some((t) => t.id === id));
  if (unknown.length) throw new Error(`unknown target ${unknown.join(", ")}; known: ${TARGETS.map((t) => t.id).join(", ")}`);
  return TARGETS.filter((t) => ids.includes(t.id));
}
