/**
 * The flags of every `bun build --compile` of od: scripts/build.ts (dist/od), scripts/build-target.ts
 * (the Windows and macOS binaries) and the startup benchmark's hello-world (test/bench/startup.bench.ts),
 * so the binary and its yardstick are built alike.
 *
 * `--splitting` keeps each command's code in a chunk of its own that the binary parses only when the
 * command is imported (`od serve` its server, `od acp` the ACP SDK): without it the whole ~1.9 MB
 * bundle is one module, parsed at every start, `od --version` included (docs/benchmarks.md, startup).
 *
 * `--compile-jit-policy` raises JavaScriptCore's tier-up thresholds START_JIT_POLICY-fold for the
 * binary's whole life. Most of what a command runs, it runs once or a few times, and compiling that
 * code on the engine's JIT threads cost more than it saved; code that does run hot is still
 * compiled, later. The same build with and without it, each with an OD_HOME of its own, 60 starts
 * taking turns (docs/benchmarks.md, startup): a cached `od agents` 50.9 → 42.0 ms of wall and 59.3
 * → 44.4 ms of CPU, `od run --dry-run` 47.6 → 40.6 and 54.3 → 42.6; a 20k-event `od run --json` at
 * full speed 589 → 558 ms of wall. `od serve` keeps it too: putting the engine's policy back once it
 * serves gave 128 runs 4% more events/s and one run 20% more CPU per event and 9 MiB more memory.
 *
 * The `--no-compile-autoload-*` flags keep the folder od runs in out of od's own process. A
 * Bun-compiled binary otherwise reads `bunfig.toml` (its `preload` runs code before od's first
 * line, with all of od's authority) and `.env` files (OD_HOME, an agent's endpoint or key) from its
 * working folder, which is usually someone else's repository (test/build/hostile-cwd.test.ts).
 * tsconfig.json and package.json are off by default in Bun 1.4; said here so a new default cannot
 * turn them on. Not reading them also saves every start a scan of the folder and its parents.
 */
export const START_JIT_POLICY = 100;

export const COMPILE_FLAGS = [
  "--compile",
  "--minify",
  "--bytecode",
  "--splitting",
  "--format=esm",
  `--compile-jit-policy=${START_JIT_POLICY}`,
  "--no-compile-autoload-dotenv",
  "--no-compile-autoload-bunfig",
  "--no-compile-autoload-tsconfig",
  "--no-compile-autoload-package-json",
] as const;
