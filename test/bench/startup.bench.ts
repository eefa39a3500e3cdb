/**
 * 3. Startup of the compiled binary, spawn to exit, in an in-script loop (hyperfine is not
 * needed): the commands take turns, after warm-ups. Its yardstick (issue 34) is a Bun
 * hello-world compiled with od's own flags (scripts/compile-flags.ts): what any compiled Bun
 * program costs to start on this machine, so each od command is also given as a ratio to it,
 * paired run by run (the hello-world ran just before), which holds better than milliseconds on
 * a loaded machine. CPU time (user + system) is given beside wall time for the same reason.
 * `/bin/true` measures what spawning alone costs from here.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { COMPILE_FLAGS } from "../../scripts/compile-flags.ts";
import { tmpdir } from "../helpers.ts";
import { fakeAllAgents } from "./detect.bench.ts";
import { BUN, OD } from "./fakes.ts";
import { type Figure, figure, median } from "./stats.ts";

const SECTION = "3 startup";
const HELLO = "hello-world (Bun, od's compile flags)";

/** od's commands, and the ratio to the hello-world each should stay within (issue 34). */
const targets: Record<string, number | undefined> = {
  "od --version": 1.5,
  "od --help": undefined,
  "od agents (cached)": 2,
  "od run --dry-run": 2,
};

/** Compiles a hello-world with od's flags into `dir`; its path. */
export function buildHello(dir: string): string {
  const src = join(dir, "hello.ts");
  const out = join(dir, "hello");
  writeFileSync(src, 'console.log("hello world");\n');
  const b = Bun.spawnSync([BUN, "build", ...COMPILE_FLAGS, src, "--outfile", out], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  if (b.exitCode !== 0) throw new Error(`compiling the hello-world failed: ${b.stderr.toString()}`);
  return out;
}

interface Sample {
  wall: number;
  cpu: number;
}

export async function benchStartup(opts: { reps: number; warmup: number }): Promise<Figure[]> {
  await using tmp = tmpdir("od-bench-startup-");
  const { env } = await fakeAllAgents(tmp.path);
  const hello = buildHello(tmp.path);
  const commands: Array<[string, string[]]> = [
    ["/bin/true (spawn floor)", ["/bin/true"]],
    [HELLO, [hello]],
    ["od --version", [OD, "--version"]],
    ["od --help", [OD, "--help"]],
    ["od agents (cached)", [OD, "agents"]],
    ["od run --dry-run", [OD, "run", "--dry-run", "--agent", "claude", "--cwd", tmp.path, "hi"]],
  ];
  const once = async (cmd: string[]): Promise<Sample> => {
    const t = performance.now();
    const p = Bun.spawn(cmd, { env, cwd: tmp.path, stdout: "ignore", stderr: "ignore", stdin: "ignore" });
    const code = await p.exited;
    const wall = performance.now() - t;
    if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}`);
    return { wall, cpu: Number(p.resourceUsage()?.cpuTime.total ?? Number.NaN) / 1000 };
  };
  // Fills the detection cache (OD_HOME of this HOME) so `od agents` answers from it.
  await once([OD, "agents", "--refresh"]);
  for (let i = 0; i < opts.warmup; i++) for (const [, cmd] of commands) await once(cmd);
  const samples = new Map<string, Sample[]>(commands.map(([name]) => [name, []]));
  for (let rep = 0; rep < opts.reps; rep++) for (const [name, cmd] of commands) samples.get(name)!.push(await once(cmd));
  return startupFigures(samples);
}

/** Wall time of each command; then each od command's CPU time, and its ratios to the hello-world of the same rep. */
export function startupFigures(samples: Map<string, Sample[]>): Figure[] {
  const hello = samples.get(HELLO)!;
  const figures = [...samples].map(([name, xs]) =>
    figure(
      SECTION,
      name,
      "ms",
      xs.map((x) => x.wall),
    ),
  );
  figures.push(
    figure(
      SECTION,
      `${HELLO}: CPU (user + system)`,
      "ms",
      hello.map((x) => x.cpu),
    ),
  );
  for (const [name, limit] of Object.entries(targets)) {
    const xs = samples.get(name)!;
    figures.push(
      figure(
        SECTION,
        `${name}: CPU (user + system)`,
        "ms",
        xs.map((x) => x.cpu),
      ),
    );
    for (const what of ["wall", "cpu"] as const) {
      const ratios = xs.map((x, i) => x[what] / hello[i]![what]);
      const judged = limit === undefined ? {} : { target: `≤ ${limit}×`, met: median(ratios) <= limit };
      figures.push(figure(SECTION, `${name} / hello-world, ${what === "wall" ? "wall" : "CPU"}`, "×", ratios, judged));
    }
  }
  return figures;
}
