/**
 * 7. Detection against real CLIs, where shell-script fakes that sleep cannot show it: a real
 * Node CLI's `--version` costs 0.3–2 s of CPU, so probes started together on a busy machine
 * queue behind each other. The seven CLIs of the live lane (test/live/clis.ts: claude, codex,
 * gemini, qwen, pi, opencode, copilot), as npm installed them in its cache (`npm run test:live`
 * fills it), each set up as a logged-in user has it in a fresh HOME. Quiet, then beside two CPU
 * burners (`bun -e "for(;;){}"`): the slowest single `--version` alone, cold `od agents --refresh`
 * (a fresh OD_HOME), cached `od agents`, whether all seven are ready at their pinned versions,
 * and detectAll in process (the 9 adapters of those CLIs, gemini-acp and qwen-acp included). Model
 * catalogs are not detection's (issue 19): fetched when models are asked for, so neither runs one.
 * What the cache lacks is installed first from the lane's pins (test/live's installer), so the
 * section never runs on no CLI; it is skipped with a note only when that install fails. Targets
 * (issue 34): cold `od agents --refresh` ≤ 300 ms, every one ready at its pinned version, and no
 * process started by detection (counted in process, through detectAll's prober). Also, on fakes:
 * every built-in npm CLI installed the npm way (on-disk-detect.bench.ts).
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { loadRegistry } from "../../src/builtins.ts";
import { detectAll } from "../../src/core/agents/detect.ts";
import type { Adapter } from "../../src/core/contract/adapter.ts";
import { probe } from "../../src/core/os/probe.ts";
import { tmpdir } from "../helpers.ts";
import { CLIS, cacheRoot, installCli, installDir, type LiveCli } from "../live/clis.ts";
import { BUN } from "./fakes.ts";
import { benchAllOnDisk, odAgents } from "./on-disk-detect.bench.ts";
import { type Figure, figure, median } from "./stats.ts";

const SECTION = "7 real-detect";
const IDS = ["claude", "codex", "gemini", "qwen", "pi", "opencode", "copilot"];

const binDir = (cli: LiveCli) => join(installDir(cli), cli.binSubdir ?? join("node_modules", ".bin"));

export async function benchRealDetect(opts: { reps: number; burners: number }): Promise<Figure[]> {
  const clis = IDS.map((id) => CLIS.find((c) => c.id === id)!);
  const figures = await benchAllOnDisk(opts.reps);
  const failed = await installAbsent(clis);
  if (failed.length) {
    const note = `skipped: ${failed.join("; ")} (installing into ${cacheRoot()} failed)`;
    return [...figures, figure(SECTION, "real CLIs", "", [], { note })];
  }
  const registry = await loadRegistry([]);
  const bins = new Set(clis.map((c) => c.bin));
  const adapters = registry
    .list()
    .map((e) => e.adapter)
    .filter((a) => bins.has(a.bin));
  const quiet = newSamples();
  const busy = newSamples();
  for (let rep = 0; rep < opts.reps; rep++) {
    await oneRound(clis, adapters, quiet);
    await withBurners(opts.burners, () => oneRound(clis, adapters, busy));
  }
  return [...figures, ...report(quiet, "quiet"), ...report(busy, `${opts.burners} CPU burners`)];
}

/** Installs the CLIs the cache lacks at the lane's pins, one at a time; returns what failed, with why. */
async function installAbsent(clis: LiveCli[]): Promise<string[]> {
  const failed: string[] = [];
  for (const cli of clis.filter((c) => !existsSync(join(binDir(c), c.bin)))) {
    process.stderr.write(` installing ${cli.pkg}@${cli.version}…`);
    await installCli(cli).catch((err) => failed.push(`${cli.id}: ${String(err?.message ?? err).split("\n")[0]}`));
  }
  return failed;
}

interface Samples {
  single: number[];
  slowest: string[];
  cold: number[];
  coldCpu: number[];
  cached: number[];
  inProcess: number[];
  wrong: number[];
  fromDisk: number[];
  spawns: number[];
  spawned: Set<string>;
  notes: Set<string>;
}

const newSamples = (): Samples => ({
  single: [],
  slowest: [],
  cold: [],
  coldCpu: [],
  cached: [],
  inProcess: [],
  wrong: [],
  fromDisk: [],
  spawns: [],
  spawned: new Set(),
  notes: new Set(),
});

async function oneRound(clis: LiveCli[], adapters: Adapter[], s: Samples): Promise<void> {
  await using tmp = tmpdir("od-bench-real-detect-");
  const env = userEnv(clis, tmp.path);
  const worst = await slowestSingle(clis, env);
  s.single.push(worst.ms);
  s.slowest.push(worst.id);
  const cold = await odAgents({ ...env, OD_HOME: join(tmp.path, ".od") }, ["--refresh"]);
  s.cold.push(cold.ms);
  s.coldCpu.push(cold.cpuMs);
  s.cached.push((await odAgents({ ...env, OD_HOME: join(tmp.path, ".od") }, [])).ms);
  const seven = clis.map((cli) => [cli, cold.detections.find((d) => d.id === cli.id)] as const);
  const wrong = seven.filter(([cli, d]) => d?.status !== "ready" || d.version !== cli.version);
  for (const [cli, d] of wrong) s.notes.add(`${cli.id}: ${d?.status} ${d?.version} (${d?.problems.map((p) => p.code).join(",")})`);
  s.wrong.push(wrong.length);
  s.fromDisk.push(seven.filter(([, d]) => d?.versionFrom === "package" || d?.versionFrom === "install-dir").length);
  const ran: string[] = [];
  const t = performance.now();
  await detectAll(adapters, env, { probe: (cmd, o) => (ran.push(cmd.join(" ").replace(`${cacheRoot()}/`, "")), probe(cmd, o)) });
  s.inProcess.push(performance.now() - t);
  s.spawns.push(ran.length);
  for (const cmd of ran) s.spawned.add(cmd);
}

function report(s: Samples, when: string): Figure[] {
  const ratio = s.cold.map((t, i) => t / s.single[i]!);
  const proper = s.inProcess.map((t, i) => t / s.single[i]!);
  const slowest = [...new Set(s.slowest)].join(", ");
  const wrong = s.notes.size ? `not ready or not at the pinned version: ${[...s.notes].join("; ")}` : undefined;
  return [
    figure(SECTION, `${when}: slowest single --version, alone`, "ms", s.single, { note: `${when}: the slowest was ${slowest}` }),
    figure(SECTION, `${when}: od agents --refresh, cold (7 real CLIs)`, "ms", s.cold, { target: "<= 300 ms", met: median(s.cold) <= 300 }),
    figure(SECTION, `${when}: od agents --refresh, cold, CPU (its probes' too)`, "ms", s.coldCpu),
    figure(SECTION, `${when}: cold / slowest single probe`, "x", ratio, { target: "<= 1.2", met: median(ratio) <= 1.2 }),
    figure(SECTION, `${when}: od agents, cached`, "ms", s.cached),
    figure(SECTION, `${when}: detectAll of their 9 adapters (in process)`, "ms", s.inProcess),
    figure(SECTION, `${when}: that / slowest single probe`, "x", proper, { target: "<= 1.2", met: median(proper) <= 1.2 }),
    figure(SECTION, `${when}: of the 7, not ready at their true version`, "", s.wrong, {
      target: "0",
      met: Math.max(...s.wrong) === 0,
      note: wrong,
    }),
    figure(SECTION, `${when}: of the 7, version read from disk`, "", s.fromDisk),
    figure(SECTION, `${when}: processes detection started (9 adapters)`, "", s.spawns, {
      target: "0",
      met: Math.max(...s.spawns) === 0,
      note: s.spawned.size ? `started: ${[...s.spawned].join("; ")}` : undefined,
    }),
  ];
}

/** A logged-in user's HOME for the seven: each CLI's own setup (its endpoint a closed port), codex logged in with a key. */
function userEnv(clis: LiveCli[], home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const cli of clis) Object.assign(env, cli.setup("http://127.0.0.1:9", home));
  delete env.GEMINI_CLI_NO_RELAUNCH; // the lane's speed-up: a user's gemini relaunches itself
  mkdirSync(join(home, ".codex"), { recursive: true });
  writeFileSync(join(home, ".codex", "auth.json"), JSON.stringify({ auth_mode: "apikey", OPENAI_API_KEY: "od-bench-not-a-key" }));
  const node = Bun.which("node");
  const path = [...clis.map(binDir), ...(node ? [dirname(node)] : []), "/usr/bin", "/bin"];
  return { ...env, PATH: [...new Set(path)].join(":"), HOME: home, NO_COLOR: "1" };
}

async function slowestSingle(clis: LiveCli[], env: Record<string, string>): Promise<{ ms: number; id: string }> {
  let worst = { ms: 0, id: "" };
  for (const cli of clis) {
    const t = performance.now();
    const p = Bun.spawn([join(binDir(cli), cli.bin), "--version"], {
      env,
      cwd: env.HOME,
      stdin: "ignore",
      stdout: "ignore",
      stderr: "ignore",
    });
    await p.exited;
    const ms = performance.now() - t;
    if (ms > worst.ms) worst = { ms, id: cli.id };
  }
  return worst;
}

/** `n` busy loops beside `f` (one per core on the bench machine), killed after. */
export async function withBurners<T>(n: number, f: () => Promise<T>): Promise<T> {
  const burners = Array.from({ length: n }, () =>
    Bun.spawn([BUN, "-e", "for(;;){}"], { stdin: "ignore", stdout: "ignore", stderr: "ignore" }),
  );
  try {
    await Bun.sleep(300); // running flat out before the clock starts
    return await f();
  } finally {
    for (const b of burners) b.kill("SIGKILL");
    await Promise.all(burners.map((b) => b.exited));
  }
}
