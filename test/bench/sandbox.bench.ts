/**
 * 8. The kernel sandbox's cost per spawn: `/bin/true` spawned as a run's agent is (spawn to exit),
 * bare (`--sandbox off`) and through the helper with a read-only policy (Landlock only) and an edit
 * policy whose working directory has a .git (Landlock and a private mount namespace), taking turns.
 * The figure is the difference of the medians; the target is ≤ 5 ms (issue 29).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { sandboxSupport } from "../../src/core/os/sandbox/choose.ts";
import { policyFor } from "../../src/core/os/sandbox/policy.ts";
import { plannedTmp, prepareSandbox } from "../../src/core/os/sandbox/wrap.ts";
import { tmpdir } from "../helpers.ts";
import { type Figure, figure, median } from "./stats.ts";

export async function benchSandbox(opts: { reps: number; warmup: number }): Promise<Figure[]> {
  const support = sandboxSupport();
  if (support.kind !== "landlock")
    return [figure("8 sandbox", "cost per spawn", "ms", [], { note: `no kernel sandbox here: ${support.reason}` })];
  await using tmp = tmpdir("od-bench-sandbox-");
  const work = join(tmp.path, "work");
  const state = join(tmp.path, "home", ".cli");
  mkdirSync(join(work, ".git"), { recursive: true });
  mkdirSync(state, { recursive: true });
  const once = async (mode: "off" | "read-only" | "edit") => {
    const key = crypto.randomUUID();
    const policy = mode === "off" ? undefined : policyFor({ mode, cwd: work, state: [state], tmp: plannedTmp(key) });
    const t = performance.now();
    const prepared = prepareSandbox(policy ? { kind: "landlock", policy } : { kind: "none" }, ["/bin/true"], plannedTmp(key), []);
    const p = Bun.spawn(prepared.cmd, { cwd: work, stdin: "ignore", stdout: "ignore", stderr: "ignore" });
    const code = await p.exited;
    const ms = performance.now() - t;
    prepared.cleanup();
    if (code !== 0) throw new Error(`the sandboxed /bin/true (${mode}) exited ${code}`);
    return ms;
  };
  const modes = ["off", "read-only", "edit"] as const;
  for (let i = 0; i < opts.warmup; i++) for (const m of modes) await once(m);
  const samples = { off: [] as number[], "read-only": [] as number[], edit: [] as number[] };
  for (let rep = 0; rep < opts.reps; rep++) for (const m of modes) samples[m].push(await once(m));
  const bare = median(samples.off);
  const cost = (m: "read-only" | "edit") => samples[m].map((x) => x - bare);
  return [
    figure("8 sandbox", "spawn to exit, --sandbox off", "ms", samples.off),
    figure("8 sandbox", "cost per spawn, read-only (Landlock)", "ms", cost("read-only"), {
      target: "≤ 5 ms",
      met: median(cost("read-only")) <= 5,
    }),
    figure("8 sandbox", "cost per spawn, edit with .git (Landlock + mount namespace)", "ms", cost("edit"), {
      target: "≤ 5 ms",
      met: median(cost("edit")) <= 5,
    }),
  ];
}
