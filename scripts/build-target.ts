/**
 * Cross-compiles od for another OS, offline: `bun scripts/build-target.ts windows|macos`.
 *
 * `bun build --compile --target=…` alone downloads the target's Bun runtime from
 * the public npm registry (ignoring npm's registry setting). Instead, this takes
 * the runtime from npm's own client (`npm pack @oven/bun-<target>@<host bun version>`,
 * which honours .npmrc and mirrors), keeps it in a cache outside the repository,
 * and hands it to `--compile-executable-path`, so the compile step needs no network.
 * The runtime version always equals the host bun's: a compiled binary embeds both.
 *
 * Cache: $OD_RUNTIME_CACHE, else $XDG_CACHE_HOME/od/bun-runtimes, else ~/.cache/od/bun-runtimes.
 */
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";

const TARGETS = {
  windows: { pkg: "@oven/bun-windows-x64", exe: "bun.exe", target: "bun-windows-x64", out: "dist/od.exe" },
  macos: { pkg: "@oven/bun-darwin-aarch64", exe: "bun", target: "bun-darwin-arm64", out: "dist/od-darwin-arm64" },
} as const;
type TargetName = keyof typeof TARGETS;

const ROOT = resolve(import.meta.dir, "..");

export function runtimeCacheDir(env: Record<string, string | undefined> = process.env): string {
  if (env.OD_RUNTIME_CACHE) return resolve(env.OD_RUNTIME_CACHE);
  return join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "od", "bun-runtimes");
}

function run(cmd: string[], cwd = ROOT): string {
  const proc = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "inherit" });
  if (proc.exitCode !== 0) throw new Error(`${cmd.join(" ")} exited with ${proc.exitCode}`);
  return proc.stdout.toString();
}

/** The path of the target's Bun runtime, fetched with `npm pack` and unpacked once per version. */
export function fetchRuntime(name: TargetName, version = Bun.version, cache = runtimeCacheDir()): string {
  const { pkg, exe } = TARGETS[name];
  return fetchRuntimePackage(pkg, exe, version, cache);
}

/** `bin/<exe>` of a Bun runtime package (`@oven/bun-<os>-<cpu>[-musl]`) at `version`, through the cache. */
export function fetchRuntimePackage(pkg: string, exe: string, version = Bun.version, cache = runtimeCacheDir()): string {
  const dir = join(cache, `${pkg.replace("@", "").replace("/", "-")}-${version}`);
  const binary = join(dir, "package", "bin", exe);
  if (existsSync(binary)) return binary;
  mkdirSync(cache, { recursive: true });
  const packed = JSON.parse(run(["npm", "pack", `${pkg}@${version}`, "--pack-destination", cache, "--json", "--silent"])) as Array<{
    filename: string;
  }>;
  const tgz = join(cache, packed[0]!.filename);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  run(["tar", "xzf", tgz, "-C", dir]);
  rmSync(tgz, { force: true });
  if (!existsSync(binary)) throw new Error(`${pkg}@${version} has no package/bin/${exe}`);
  return binary;
}

export function build(name: TargetName): string {
  const { target, out } = TARGETS[name];
  const runtime = fetchRuntime(name);
  run([process.execPath, "scripts/gen-registry.ts"]);
  run([
    process.execPath,
    "build",
    "--compile",
    `--target=${target}`,
    `--compile-executable-path=${runtime}`,
    "--minify",
    "--bytecode",
    "--format=esm",
    "src/main.ts",
    "--outfile",
    out,
  ]);
  return join(ROOT, out);
}

if (import.meta.main) {
  const name = process.argv[2];
  if (name !== "windows" && name !== "macos") {
    console.error("usage: bun scripts/build-target.ts windows|macos [--fetch-only]");
    process.exit(2);
  }
  if (process.argv.includes("--fetch-only")) {
    console.error(fetchRuntime(name));
    process.exit(0);
  }
  const started = performance.now();
  const out = build(name);
  console.error(`built ${out} for ${TARGETS[name].target} with bun ${Bun.version} in ${Math.round(performance.now() - started)} ms`);
}
