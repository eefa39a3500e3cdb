/**
 * What od's compile flags (scripts/compile-flags.ts) make of a binary: it starts with the engine's
 * JIT thresholds raised, so the code a short command runs stays in the interpreter and the engine
 * starts no JIT thread for it. A probe compiled with the flags does a little start-up work (reads
 * /proc, calls a function a thousand times) and names its threads: with the engine's own policy
 * that work was already being compiled on a "JITWorker" thread; with od's flags there is none.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { COMPILE_FLAGS } from "../../scripts/compile-flags.ts";
import { tmpdir } from "../helpers.ts";

const PROBE = `
import { readdirSync, readFileSync } from "node:fs";
const work = new Function("n", "let s = 0; for (let i = 0; i < n; i++) s += i % 7; return s;");
for (let i = 0; i < 1000; i++) work(10);
await Bun.sleep(30); // a compile the work asked for has started its thread by now
const threads = readdirSync("/proc/self/task").map((t) => readFileSync("/proc/self/task/" + t + "/comm", "utf8").trim());
console.log(JSON.stringify(threads));
`;

/** The threads of the probe compiled with `flags`, once its work is done. */
function threadsOf(dir: string, flags: readonly string[]): string[] {
  const src = join(dir, "probe.ts");
  const out = join(dir, `probe-${flags.length}`);
  writeFileSync(src, PROBE);
  const built = Bun.spawnSync([process.execPath, "build", ...flags, src, "--outfile", out], { cwd: dir, stderr: "pipe" });
  if (built.exitCode !== 0) throw new Error(`bun build: ${built.stderr.toString()}`);
  const ran = Bun.spawnSync([out], { stdout: "pipe", stderr: "pipe" });
  if (ran.exitCode !== 0) throw new Error(`probe: ${ran.stderr.toString()}`);
  return JSON.parse(ran.stdout.toString()) as string[];
}

describe("od's compile flags", () => {
  test.skipIf(process.platform !== "linux")(
    "a binary starts with the JIT thresholds raised: a short command's code is not compiled, no JIT thread starts",
    async () => {
      await using tmp = tmpdir("od-compile-flags-");
      const enginePolicy = COMPILE_FLAGS.filter((f) => !f.startsWith("--compile-jit-policy="));
      expect(enginePolicy.length).toBe(COMPILE_FLAGS.length - 1);
      expect(threadsOf(tmp.path, enginePolicy)).toContain("JITWorker"); // the probe can tell
      expect(threadsOf(tmp.path, COMPILE_FLAGS)).not.toContain("JITWorker");
    },
    60_000,
  );
});
