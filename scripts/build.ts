/**
 * `npm run build`: the generated import lists, the sandbox helper (Linux), then dist/od, one
 * self-contained binary with the helper embedded (`Bun.embeddedFiles`; see src/core/os/sandbox/helper.ts).
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildHelper } from "./build-helper.ts";
import { COMPILE_FLAGS } from "./compile-flags.ts";

const ROOT = resolve(import.meta.dir, "..");

function run(cmd: string[]): void {
  const proc = Bun.spawnSync(cmd, { cwd: ROOT, stdout: "inherit", stderr: "inherit" });
  if (proc.exitCode !== 0) process.exit(proc.exitCode ?? 1);
}

run([process.execPath, "scripts/gen-registry.ts"]);
const helper = join(ROOT, "dist", "od-sandbox");
const why = buildHelper(helper);
if (why) console.error(`od: building without the sandbox helper: ${why}. od will say that the kernel cannot hold its modes.`);
run([process.execPath, "build", ...COMPILE_FLAGS, "src/main.ts", ...(existsSync(helper) ? [helper] : []), "--outfile", "dist/od"]);
