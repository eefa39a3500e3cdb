/**
 * 3. Startup of the compiled binary, spawn to exit, in an in-script loop
 * (hyperfine is not needed): the commands take turns, after warm-ups, and
 * `/bin/true` measures what spawning alone costs from here.
 */
import { tmpdir } from "../helpers.ts";
import { fakeAllAgents } from "./detect.bench.ts";
import { OD } from "./fakes.ts";
import { type Figure, figure, median } from "./stats.ts";

export async function benchStartup(opts: { reps: number; warmup: number }): Promise<Figure[]> {
  await using tmp = tmpdir("od-bench-startup-");
  const { env } = await fakeAllAgents(tmp.path);
  const commands: Array<[string, string[]]> = [
    ["/bin/true (spawn floor)", ["/bin/true"]],
    ["od --version", [OD, "--version"]],
    ["od agents (cached)", [OD, "agents"]],
    ["od run --dry-run", [OD, "run", "--dry-run", "--agent", "claude", "--cwd", tmp.path, "hi"]],
  ];
  const once = async (cmd: string[]) => {
    const t = performance.now();
    const p = Bun.spawn(cmd, { env, cwd: tmp.path, stdout: "ignore", stderr: "ignore", stdin: "ignore" });
    const code = await p.exited;
    const ms = performance.now() - t;
    if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}`);
    return ms;
  };
  // Fills the detection cache (~/.open-design/agents.json of this HOME) so `od agents` answers from it.
  await once([OD, "agents", "--refresh"]);
  for (let i = 0; i < opts.warmup; i++) for (const [, cmd] of commands) await once(cmd);
  const samples = new Map<string, number[]>(commands.map(([name]) => [name, []]));
  for (let rep = 0; rep < opts.reps; rep++) for (const [name, cmd] of commands) samples.get(name)!.push(await once(cmd));
  return commands.map(([name]) => {
    const xs = samples.get(name)!;
    return name === "od --version"
      ? figure("3 startup", name, "ms", xs, { target: "< 25 ms", met: median(xs) < 25 })
      : figure("3 startup", name, "ms", xs);
  });
}
