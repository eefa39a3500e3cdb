/**
 * Builds the sandbox helper (src/core/os/sandbox/helper.c) as `dist/od-sandbox`, which
 * `npm run build` embeds in dist/od: `bun scripts/build-helper.ts [--arch x64|arm64]`.
 *
 * A static binary (it runs on glibc and musl systems alike), built with the system's C compiler:
 * `$CC`, else `musl-gcc` where it is installed (Debian: musl-tools), else `cc`; for another
 * architecture, Debian's cross compiler (`aarch64-linux-gnu-gcc`, package gcc-aarch64-linux-gnu).
 * Only Linux has a use for it. Without a compiler the build goes on without the helper, says so,
 * and od then reports that the kernel cannot hold its modes.
 *
 * musl first because a run pays for the helper's size: od copies its bytes into a sealed memfd
 * before the first agent starts (helper.ts). Static with musl it is 46 KB; with glibc, 690 KB.
 */
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const SOURCE = join(ROOT, "src/core/os/sandbox/helper.c");
const CROSS: Record<string, string> = { arm64: "aarch64-linux-gnu-gcc", x64: "x86_64-linux-gnu-gcc" };
const HOST_ARCH = process.arch === "arm64" ? "arm64" : "x64";

/** Compiles the helper for `arch` to `out`; returns why not when it cannot (no compiler, not Linux). */
export function buildHelper(out: string, arch: string = HOST_ARCH, env = process.env): string | undefined {
  rmSync(out, { force: true });
  if (process.platform !== "linux") return `${process.platform} builds no sandbox helper (Landlock is Linux's)`;
  const cc = arch === HOST_ARCH ? env.CC || (Bun.which("musl-gcc") ? "musl-gcc" : "cc") : CROSS[arch];
  if (!cc) return `no compiler known for ${arch}`;
  if (!Bun.which(cc)) return `no C compiler (${cc}) on PATH`;
  mkdirSync(join(out, ".."), { recursive: true });
  const flags = ["-Os", "-static", "-s", "-Wall", "-Wextra", "-Werror", "-o", out, SOURCE];
  const built = Bun.spawnSync([cc, ...flags], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if (built.exitCode !== 0 || !existsSync(out)) return `${cc} failed: ${built.stderr.toString().trim()}`;
  return undefined;
}

if (import.meta.main) {
  const at = process.argv.indexOf("--arch");
  const arch = at > 0 ? process.argv[at + 1] : undefined;
  const out = join(ROOT, "dist", "od-sandbox");
  const why = buildHelper(out, arch);
  if (why) console.error(`od: building without the sandbox helper: ${why}. od will say that the kernel cannot hold its modes.`);
  else console.error(`built ${out}`);
}
