/**
 * One platform's od binary, compiled offline: the target's Bun runtime comes from
 * `npm pack @oven/bun-<target>@<pinned bun>` (cached; scripts/build-target.ts), and on Linux the
 * sandbox helper for the target's architecture is embedded, as `npm run build` embeds the host's.
 *
 * No helper for a Linux target (no `aarch64-linux-gnu-gcc` for arm64, no `cc` for x64) fails
 * the release, naming the Debian package, unless `--without-helper` was given: a release is what
 * every user of that platform gets, and an od without its helper cannot hold a mode with the kernel.
 */
import { existsSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { buildHelper } from "../build-helper.ts";
import { fetchRuntimePackage } from "../build-target.ts";
import { runtimeExe, type Target } from "./targets.ts";

const ROOT = resolve(import.meta.dir, "../..");
const COMPILERS: Record<string, string> = {
  x64: "a C compiler (`cc`, Debian: build-essential)",
  arm64: "aarch64-linux-gnu-gcc (Debian: gcc-aarch64-linux-gnu libc6-dev-arm64-cross)",
};

export interface Compiled {
  binary: string;
  /** Whether the sandbox helper is embedded; why not, when it is not (Linux only). */
  helper: boolean;
  why?: string;
}

/** The target's Bun runtime, fetched if it is not cached yet. */
export const runtimeFor = (t: Target) => fetchRuntimePackage(t.runtime, runtimeExe(t));

/** Compiles `t` to `outFile`; the helper is built into `work`. Throws when the helper is needed and cannot be built. */
export function compileTarget(t: Target, outFile: string, work: string, withoutHelper: boolean): Compiled {
  const helperPath = join(work, `helper-${t.helper ?? "none"}`, "od-sandbox");
  let why: string | undefined;
  if (t.helper) {
    why = buildHelper(helperPath, t.helper);
    if (why && !withoutHelper)
      throw new Error(
        `${t.id}: cannot build the sandbox helper: ${why}.\n` +
          `  Install ${COMPILERS[t.helper]}, or pass --without-helper to publish ${t.id} without it ` +
          "(its od then says the kernel cannot hold its modes).",
      );
  }
  const helper = Boolean(t.helper) && !why && existsSync(helperPath);
  mkdirSync(dirname(outFile), { recursive: true });
  const cmd = [
    process.execPath,
    "build",
    "--compile",
    `--target=${t.bunTarget}`,
    `--compile-executable-path=${runtimeFor(t)}`,
    "--minify",
    "--bytecode",
    "--format=esm",
    "src/main.ts",
    ...(helper ? [helperPath] : []),
    "--outfile",
    outFile,
  ];
  const proc = Bun.spawnSync(cmd, { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if (proc.exitCode !== 0 || !existsSync(outFile))
    throw new Error(`${t.id}: bun build failed (exit ${proc.exitCode}):\n${proc.stderr.toString()}${proc.stdout.toString()}`);
  return { binary: outFile, helper, why };
}
