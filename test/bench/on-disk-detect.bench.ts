/**
 * 7b. Detection with every built-in npm CLI installed the npm way, on fakes: each adapter with
 * `detect.npmPackage` in a fresh prefix (`lib/node_modules/<pkg>/package.json`, `bin/<bin>` linked
 * to the package's entry, a script that notes each run), a user logged in on disk. Cold `od agents --refresh` (target
 * < 150 ms), the `--version`s it ran (target 0), and every process detection starts, counted in
 * process through detectAll's prober (target 0; what still runs is named).
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { loadRegistry } from "../../src/builtins.ts";
import { detectAll } from "../../src/core/agents/detect.ts";
import type { Detection } from "../../src/core/agents/detection.ts";
import { probe } from "../../src/core/os/probe.ts";
import { tmpdir } from "../helpers.ts";
import { OD } from "./fakes.ts";
import { type Figure, figure, median } from "./stats.ts";

const SECTION = "7 real-detect";

/**
 * Every built-in adapter with `detect.npmPackage`, installed the npm way in a fresh prefix
 * (`lib/node_modules/<pkg>/package.json`, `bin/<bin>` linked to the package's entry, a script
 * that notes each run): cold `od agents --refresh`, and how many `--version`s it ran.
 */
export async function benchAllOnDisk(reps: number): Promise<Figure[]> {
  await using tmp = tmpdir("od-bench-on-disk-");
  const registry = await loadRegistry([]);
  const npm = registry
    .list()
    .map((e) => e.adapter)
    .filter((a) => a.detect.npmPackage);
  const ranLog = join(tmp.path, "ran");
  for (const a of npm) {
    const pkgDir = join(tmp.path, "lib", "node_modules", a.detect.npmPackage!);
    if (existsSync(join(pkgDir, "package.json"))) continue; // gemini and gemini-acp share one
    mkdirSync(join(pkgDir, "bin"), { recursive: true });
    writeFileSync(join(pkgDir, "package.json"), JSON.stringify({ name: a.detect.npmPackage, version: "9.9.9" }));
    writeFileSync(join(pkgDir, "bin", "cli"), `#!/bin/sh\necho "$*" >> "${ranLog}"\necho "${a.bin} 9.9.9"\n`, { mode: 0o755 });
    mkdirSync(join(tmp.path, "bin"), { recursive: true });
    symlinkSync(join(pkgDir, "bin", "cli"), join(tmp.path, "bin", a.bin));
  }
  loggedIn(tmp.path);
  const env = { PATH: `${join(tmp.path, "bin")}:/usr/bin:/bin`, HOME: tmp.path, NO_COLOR: "1" };
  const times: number[] = [];
  const cpu: number[] = [];
  const versions: number[] = [];
  for (let rep = 0; rep < reps + 1; rep++) {
    writeFileSync(ranLog, "");
    const { ms, cpuMs, detections } = await odAgents({ ...env, OD_HOME: join(tmp.path, `.od-${rep}`) }, ["--refresh"]);
    if (rep === 0) continue; // warm-up: page cache
    // Installed at the package's version (pi, logged in nowhere here, is logged-out: that is its login, not its install).
    const wrong = detections.filter((d) => npm.some((a) => a.id === d.id) && (!d.installed || d.version !== "9.9.9"));
    if (wrong.length)
      throw new Error(`fake npm installs not found at 9.9.9: ${wrong.map((d) => `${d.id} ${d.status} ${d.version}`).join(", ")}`);
    times.push(ms);
    cpu.push(cpuMs);
    versions.push(
      readFileSync(ranLog, "utf8")
        .split("\n")
        .filter((l) => l === "--version").length,
    );
  }
  const ran: string[] = [];
  await detectAll(npm, env, { probe: (cmd, o) => (ran.push(cmd.join(" ").replace(`${tmp.path}/`, "")), probe(cmd, o)) });
  const label = `${npm.length} adapters installed the npm way (fakes)`;
  return [
    figure(SECTION, "every version on disk: od agents --refresh, cold", "ms", times, {
      target: "< 150 ms",
      met: median(times) < 150,
      note: label,
    }),
    figure(SECTION, "every version on disk: od agents --refresh, cold, CPU (its children's too)", "ms", cpu),
    figure(SECTION, "every version on disk: --version runs", "", versions, { target: "0", met: Math.max(...versions) === 0 }),
    figure(SECTION, "every version on disk: processes detection started", "", [ran.length], {
      target: "0",
      met: ran.length === 0,
      note: ran.length ? `started: ${ran.join("; ")}` : undefined,
    }),
  ];
}

/** A user logged in the way each CLI writes it on disk (Claude's OAuth login, Codex's, pi's, Qodo's key), so no auth command is needed. */
function loggedIn(home: string): void {
  const files: Record<string, unknown> = {
    ".claude/.credentials.json": { claudeAiOauth: { accessToken: "a", refreshToken: "r", expiresAt: Date.now() + 3_600_000 } },
    ".codex/auth.json": { OPENAI_API_KEY: null, tokens: { id_token: "i", access_token: "a", refresh_token: "r" } },
    ".pi/agent/auth.json": { anthropic: { type: "oauth", refresh: "r", access: "a", expires: Date.now() + 3_600_000 } },
    ".qodo/auth.key": "od-bench-not-a-key",
  };
  for (const [path, data] of Object.entries(files)) {
    mkdirSync(dirname(join(home, path)), { recursive: true });
    writeFileSync(join(home, path), typeof data === "string" ? data : JSON.stringify(data));
  }
}

/** `od agents --json …`: its wall time, its CPU (user + system, with the probes it waited for), what it found. */
export async function odAgents(
  env: Record<string, string>,
  args: string[],
): Promise<{ ms: number; cpuMs: number; detections: Detection[] }> {
  const t = performance.now();
  const p = Bun.spawn([OD, "agents", "--json", ...args], { env, stdin: "ignore", stdout: "pipe", stderr: "ignore" });
  const out = await new Response(p.stdout).text();
  if ((await p.exited) !== 0) throw new Error(`od agents ${args.join(" ")} exited ${p.exitCode}`);
  const ms = performance.now() - t;
  const used = p.resourceUsage()?.cpuTime;
  return { ms, cpuMs: used ? Number(used.user + used.system) / 1000 : Number.NaN, detections: JSON.parse(out) };
}
