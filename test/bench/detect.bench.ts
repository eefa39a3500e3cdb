/**
 * 4. Detection, cold: every adapter against a fake CLI on PATH (a shell script
 * that prints a version for any probe), one of which (`slowBin`) takes
 * `slowMs` to answer every probe. Judged: the total of detectAll against the
 * slowest single probe alone, both in this process; the compiled `od agents
 * --refresh` is reported beside them. Probes queue for a core, so the slow
 * fake's own probes take turns: judged against detectOne of that adapter alone
 * (what no other adapter may add to). These fakes sleep rather than burn CPU:
 * section 7 (real-detect) measures the real CLIs.
 */
import { join } from "node:path";
import { loadRegistry } from "../../src/builtins.ts";
import { DEFAULT_PROBE_MS, detectAll, detectOne } from "../../src/core/agents/detect.ts";
import { probe } from "../../src/core/os/probe.ts";
import { tmpdir } from "../helpers.ts";
import { fakeBin, isolatedEnv, OD } from "./fakes.ts";
import { type Figure, figure, median } from "./stats.ts";

/** Fake CLIs for every built-in adapter in `<dir>/bin`; `slow` names the one that sleeps before answering. */
export async function fakeAllAgents(dir: string, slow?: { bin: string; ms: number }) {
  const registry = await loadRegistry([]);
  const adapters = registry.list().map((e) => e.adapter);
  // CLI adapters (line protocols and session drivers) run an executable; od's own loops (`api`) do not.
  const cli = adapters.filter((a) => a.protocol.kind === "lines" || a.protocol.kind === "driver");
  const bins = [...new Set(cli.map((a) => a.bin))];
  for (const bin of bins) {
    const wait = slow?.bin === bin ? `sleep ${(slow.ms / 1000).toFixed(3)}\n` : "";
    fakeBin(join(dir, "bin"), bin, `${wait}echo "${bin} 9.9.9"`);
  }
  return { adapters, cli, bins, env: isolatedEnv(dir) };
}

export async function benchDetect(opts: { reps: number; slowMs: number; slowBin: string }): Promise<Figure[]> {
  await using tmp = tmpdir("od-bench-detect-");
  const { adapters, cli, bins, env } = await fakeAllAgents(tmp.path, { bin: opts.slowBin, ms: opts.slowMs });
  const slowAdapter = adapters.find((a) => a.bin === opts.slowBin);
  if (!slowAdapter) throw new Error(`no adapter runs \`${opts.slowBin}\``);
  const slowPath = join(tmp.path, "bin", opts.slowBin);
  const fastPath = join(tmp.path, "bin", bins.find((b) => b !== opts.slowBin)!);

  const single: number[] = [];
  const fast: number[] = [];
  const slowOne: number[] = [];
  const all: number[] = [];
  const binary: number[] = [];
  const time = async (f: () => Promise<unknown>) => {
    const t = performance.now();
    await f();
    return performance.now() - t;
  };
  await detectAll(adapters, env); // warm-up: page cache, JIT
  for (let rep = 0; rep < opts.reps; rep++) {
    single.push(await time(() => probe([slowPath, "--version"], { env, timeoutMs: DEFAULT_PROBE_MS })));
    fast.push(await time(() => probe([fastPath, "--version"], { env, timeoutMs: DEFAULT_PROBE_MS })));
    slowOne.push(await time(() => detectOne(slowAdapter, env)));
    all.push(
      await time(async () => {
        const d = await detectAll(adapters, env);
        const notReady = d.filter((x) => !x.installed && cli.some((a) => a.id === x.id));
        if (notReady.length) throw new Error(`detection missed fakes: ${notReady.map((x) => x.id).join(", ")}`);
      }),
    );
    binary.push(
      await time(async () => {
        const p = Bun.spawn([OD, "agents", "--refresh", "--json"], { env, stdout: "ignore", stderr: "ignore", stdin: "ignore" });
        if ((await p.exited) !== 0) throw new Error("od agents --refresh failed");
      }),
    );
  }
  const ratio = all.map((t, i) => t / single[i]!);
  const perAdapter = all.map((t, i) => t / slowOne[i]!);
  const label = `${adapters.length} adapters, ${bins.length} fake CLIs, \`${opts.slowBin}\` answers in ${opts.slowMs} ms`;
  return [
    figure("4 detect", "one fast probe (--version)", "ms", fast),
    figure("4 detect", `slowest single probe (${opts.slowBin} --version)`, "ms", single, { note: label }),
    figure("4 detect", `detectOne(${slowAdapter.id}) alone`, "ms", slowOne),
    figure("4 detect", "detectAll, all adapters, cold", "ms", all),
    // Probes queue for a core (one slot each): the slow fake's own three probes (version, help,
    // auth) take two turns of 500 ms on two cores, so no adapter can beat detectOne of the slowest.
    figure("4 detect", "detectAll / slowest probe", "x", ratio),
    figure("4 detect", "detectAll / detectOne of the slowest alone", "x", perAdapter, { target: "<= 1.2", met: median(perAdapter) <= 1.2 }),
    figure("4 detect", "dist/od agents --refresh (wall, incl. startup)", "ms", binary),
    figure(
      "4 detect",
      "od agents --refresh / slowest probe",
      "x",
      binary.map((t, i) => t / single[i]!),
    ),
  ];
}
