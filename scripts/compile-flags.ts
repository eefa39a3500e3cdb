/**
 * The flags of every `bun build --compile` of od: scripts/build.ts (dist/od), scripts/build-target.ts
 * (the Windows and macOS binaries) and the startup benchmark's hello-world (test/bench/startup.bench.ts),
 * so the binary and its yardstick are built alike.
 *
 * `--splitting` keeps each command's code in a chunk of its own that the binary parses only when the
 * command is imported (`od serve` its server, `od acp` the ACP SDK): without it the whole ~1.9 MB
 * bundle is one module, parsed at every start, `od --version` included (docs/benchmarks.md, startup).
 */
export const COMPILE_FLAGS = ["--compile", "--minify", "--bytecode", "--splitting", "--format=esm"] as const;
