/**
 * 9. A real chat end to end: `od run --agent claude` against `claude -p` alone, the real Claude Code
 * of the live lane's pin (test/live/clis.ts, installed into its cache when missing) answering from the
 * loopback model stub. "Alone" is the very argv and stdin od gives Claude (`od run --dry-run --json`),
 * so the two differ only by od: its start, its sandbox helper, its parsing and its run log. Pairs take
 * turns (which goes first alternates); wall is spawn to exit, CPU is the process's and its waited-for
 * children's (wait4's rusage: Claude's own for both). Added wall and CPU are per pair.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLIS, installCli, liveEnv } from "../live/clis.ts";
import { startModelStub } from "../live/model-stub.ts";
import { OD } from "./fakes.ts";
import { type Figure, figure, median } from "./stats.ts";

const SECTION = "9 pair";
const PROMPT = "Say hello.";

interface Sample {
  wallMs: number;
  cpuMs: number;
}

/** Runs argv to its end with `stdin`, its stdout read and dropped: its wall time and CPU (its own and its children's). */
async function once(argv: string[], env: Record<string, string>, cwd: string, stdin?: string): Promise<Sample> {
  const t = performance.now();
  const p = Bun.spawn(argv, {
    env,
    cwd,
    stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  const wallMs = performance.now() - t;
  if (p.exitCode !== 0) throw new Error(`${argv.slice(0, 3).join(" ")}… exited ${p.exitCode}: ${(err || out).slice(-400)}`);
  const usage = p.resourceUsage();
  return { wallMs, cpuMs: usage ? Number(usage.cpuTime.total) / 1000 : Number.NaN };
}

export async function benchPair(opts: { pairs: number }): Promise<Figure[]> {
  const claude = CLIS.find((c) => c.id === "claude")!;
  let binDir: string;
  try {
    binDir = await installCli(claude);
  } catch (err) {
    return [
      figure(SECTION, "claude pair", "", [], {
        note: `skipped: ${claude.pkg}@${claude.version} could not be installed: ${(err as Error).message}`,
      }),
    ];
  }
  const home = mkdtempSync(join(tmpdir(), "od-bench-pair-home-"));
  const work = mkdtempSync(join(tmpdir(), "od-bench-pair-work-"));
  const stub = await startModelStub({ scenario: { kind: "chat" } });
  try {
    const env = liveEnv(claude, { binDir, home, stubUrl: stub.url });
    const plan = Bun.spawnSync([OD, "run", "--agent", "claude", "--dry-run", "--json", "--cwd", work, PROMPT], { env, cwd: work });
    if (plan.exitCode !== 0) throw new Error(`od run --dry-run failed: ${plan.stderr.toString()}`);
    const { argv, stdin } = JSON.parse(plan.stdout.toString()) as { argv: string[]; stdin?: string };
    const alone = () => once(argv, env, work, stdin);
    const viaOd = () => once([OD, "run", "--agent", "claude", "--cwd", work, PROMPT], env, work);
    await alone(); // warm the page cache: Claude's 200 MB of JS, and its first-run files in HOME
    await viaOd();
    const a: Sample[] = [];
    const o: Sample[] = [];
    for (let i = 0; i < opts.pairs; i++) {
      if (i % 2 === 0) {
        a.push(await alone());
        o.push(await viaOd());
      } else {
        o.push(await viaOd());
        a.push(await alone());
      }
    }
    const ratio = o.map((s, i) => s.wallMs / a[i]!.wallMs);
    const addedCpu = o.map((s, i) => s.cpuMs - a[i]!.cpuMs);
    return [
      figure(
        SECTION,
        "claude -p alone: wall",
        "ms",
        a.map((s) => s.wallMs),
      ),
      figure(
        SECTION,
        "od run --agent claude: wall",
        "ms",
        o.map((s) => s.wallMs),
      ),
      figure(SECTION, "od / alone: wall", "×", ratio, { target: "≤ 1.02×", met: median(ratio) <= 1.02 }),
      figure(
        SECTION,
        "claude -p alone: CPU",
        "ms",
        a.map((s) => s.cpuMs),
      ),
      figure(SECTION, "od added: CPU", "ms", addedCpu, { target: "≤ +50 ms", met: median(addedCpu) <= 50 }),
    ];
  } finally {
    await stub.stop();
    rmSync(home, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  }
}
