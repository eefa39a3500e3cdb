/**
 * The pkg lane's world: dist/release (what `npm run release:pack` wrote), a registry holding it,
 * a clean environment (PATH has node and the system, never bun nor this repository), and
 * runners for npm and the installed od that time each step.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ROOT } from "../helpers.ts";
import type { Registry } from "./verdaccio.ts";

export const RELEASE = resolve(ROOT, process.env.OD_RELEASE_DIR ?? "dist/release");

export interface Release {
  version: string;
  launcher: string;
  packages: Array<{
    name: string;
    tarball: string;
    size: number;
    unpackedSize: number;
    binary?: { file: string; size: number; helper: boolean };
  }>;
}

export const readRelease = (): Release => JSON.parse(readFileSync(join(RELEASE, "release.json"), "utf8"));

export interface Ran {
  code: number | null;
  out: string;
  err: string;
}

const NODE_DIR = dirname(Bun.which("node") ?? "/usr/bin/node");

/** PATH with `first` (an npm prefix's bin), node and the system folders: no bun, nothing of this repository. */
export function cleanPath(...first: string[]): string {
  return [...first, NODE_DIR, "/usr/local/bin", "/usr/bin", "/bin"].filter((d, i, all) => all.indexOf(d) === i).join(":");
}

export const timings: Array<[string, number]> = [];

export async function timed<T>(name: string, fn: () => T | Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await fn();
  } finally {
    timings.push([name, performance.now() - started]);
  }
}

export function printTimings(): void {
  const lines = timings.map(([name, ms]) => `  ${name.padEnd(56)} ${(ms / 1000).toFixed(1).padStart(6)} s`);
  console.error(`pkg lane steps:\n${lines.join("\n")}`);
}

/** Runs a command to its end; throws with its output when `check` and it failed. */
export function sh(cmd: string[], opts: { cwd: string; env: Record<string, string>; check?: boolean; timeout?: number }): Ran {
  const p = Bun.spawnSync(cmd, {
    cwd: opts.cwd,
    env: opts.env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    timeout: opts.timeout ?? 300_000,
  });
  const ran = { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
  if (opts.check !== false && ran.code !== 0) throw new Error(`${cmd.join(" ")} exited ${ran.code}:\n${ran.err}\n${ran.out}`);
  return ran;
}

/** The same, without blocking this process: what a server in it (the model stub) needs to answer the command. */
export async function shAsync(cmd: string[], opts: { cwd: string; env: Record<string, string> }): Promise<Ran> {
  const p = Bun.spawn(cmd, { cwd: opts.cwd, env: opts.env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, out, err };
}

/** npm against the registry only, with its own cache (nothing from an earlier run or the public registry). */
export function npm(reg: Registry, cache: string, args: string[], opts: { cwd: string; env: Record<string, string> }): Ran {
  return sh(["npm", ...npmFlags(reg, cache), ...args], opts);
}

/** npm's options for the registry and a cache; first, so none of them lands after `--` or a package (npx). */
export const npmFlags = (reg: Registry, cache: string) => ["--userconfig", reg.npmrc, "--registry", `${reg.url}/`, "--cache", cache];

/** `npm publish` of each tarball, `width` at a time (npm spends most of a publish reading and encoding the 55 MB). */
export async function publishAll(
  reg: Registry,
  cache: string,
  tarballs: string[],
  opts: { cwd: string; env: Record<string, string> },
  width = 4,
) {
  const queue = [...tarballs];
  const worker = async () => {
    for (let tgz = queue.shift(); tgz; tgz = queue.shift()) {
      const args = ["npm", ...npmFlags(reg, cache), "publish", tgz, "--access", "public"];
      const p = Bun.spawn(args, { ...opts, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
      const [err, code] = await Promise.all([new Response(p.stderr).text(), p.exited]);
      if (code !== 0) throw new Error(`npm publish ${tgz} exited ${code}:\n${err}`);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
}

/** npm's integrity string for a tarball (what the registry must serve back). */
export function integrity(file: string): string {
  return `sha512-${new Bun.CryptoHasher("sha512").update(readFileSync(file)).digest("base64")}`;
}
