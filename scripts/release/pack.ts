/**
 * `npm run release:pack`: od's npm packages, ready to publish, in dist/release/:
 *   packages/<id>/        one folder per package (the launcher's is packages/od/)
 *   <package>-<version>.tgz  what `npm pack` made of each (what `npm publish <tgz>` sends)
 *   SHA256SUMS            of every tarball and every binary (`sha256sum -c SHA256SUMS`)
 *   release.json          what was built: names, versions, sizes, which binaries have the helper
 *
 *   bun scripts/release/pack.ts [--only linux-x64,win32-x64] [--out dir] [--without-helper] [--fetch-only]
 *
 * Every binary is compiled by the pinned Bun, with the target's runtime from `npm pack` (cached),
 * so after `--fetch-only` the rest needs no network. The version is the root package.json's.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { type Compiled, compileTarget, runtimeFor } from "./compile.ts";
import { launcherManifest, platformManifest, platformReadme, type RootPackage } from "./manifests.ts";
import { sha256sums } from "./sums.ts";
import { binaryName, LAUNCHER, packageName, selectTargets, type Target } from "./targets.ts";

const ROOT = resolve(import.meta.dir, "../..");

interface Packed {
  name: string;
  tarball: string;
  size: number;
  unpackedSize: number;
  binary?: { file: string; size: number; helper: boolean };
}

function writeJson(path: string, value: unknown) {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** `npm pack` of a folder into `dest`: its tarball's name and sizes. Runs while the next binary compiles. */
async function npmPack(dir: string, dest: string): Promise<Omit<Packed, "binary" | "name">> {
  const proc = Bun.spawn(["npm", "pack", dir, "--pack-destination", dest, "--json", "--silent"], {
    cwd: dest,
    env: { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`npm pack ${dir} failed: ${stderr}`);
  const [info] = JSON.parse(stdout) as Array<{ filename: string; size: number; unpackedSize: number }>;
  return { tarball: basename(info!.filename), size: info!.size, unpackedSize: info!.unpackedSize };
}

function platformPackage(t: Target, root: RootPackage, out: string, withoutHelper: boolean): { dir: string; compiled: Compiled } {
  const dir = join(out, "packages", t.id);
  const compiled = compileTarget(t, join(dir, binaryName(t)), join(out, "work"), withoutHelper);
  writeJson(join(dir, "package.json"), platformManifest(root, t, binaryName(t)));
  writeFileSync(join(dir, "README.md"), platformReadme(t, root.version));
  return { dir, compiled };
}

function launcherPackage(root: RootPackage, targets: Target[], out: string): string {
  const dir = join(out, "packages", "od");
  mkdirSync(join(dir, "bin"), { recursive: true });
  copyFileSync(join(ROOT, "packaging/launcher/bin/od.js"), join(dir, "bin/od.js"));
  copyFileSync(join(ROOT, "packaging/launcher/README.md"), join(dir, "README.md"));
  writeJson(join(dir, "package.json"), launcherManifest(root, targets));
  return dir;
}

function rootPackage(): RootPackage & { devDependencies: Record<string, string> } {
  const root = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  if (root.devDependencies?.bun !== Bun.version)
    throw new Error(
      `release:pack needs the pinned Bun ${root.devDependencies?.bun}; this is ${Bun.version} (run it with node_modules/.bin/bun)`,
    );
  return root;
}

async function main() {
  const { values } = parseArgs({
    options: {
      only: { type: "string" },
      out: { type: "string" },
      "without-helper": { type: "boolean" },
      "fetch-only": { type: "boolean" },
    },
  });
  const started = performance.now();
  const root = rootPackage();
  const targets = selectTargets(values.only);
  for (const t of targets) runtimeFor(t); // every runtime first: the rest is offline
  if (values["fetch-only"]) return console.error(`runtimes cached for ${targets.map((t) => t.id).join(", ")}`);
  const out = resolve(values.out ?? join(ROOT, "dist/release"));
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const gen = Bun.spawnSync([process.execPath, "scripts/gen-registry.ts"], { cwd: ROOT, stdout: "inherit", stderr: "inherit" });
  if (gen.exitCode !== 0) throw new Error("scripts/gen-registry.ts failed");
  const packing: Array<Promise<Packed>> = [];
  for (const t of targets) {
    const at = performance.now();
    const { dir, compiled } = platformPackage(t, root, out, Boolean(values["without-helper"]));
    const binary = { file: compiled.binary, size: statSync(compiled.binary).size, helper: compiled.helper };
    packing.push(npmPack(dir, out).then((p) => ({ name: packageName(t), ...p, binary })));
    const note = t.helper && !compiled.helper ? `, WITHOUT the sandbox helper (${compiled.why})` : "";
    console.error(`${t.id}: ${(binary.size / 2 ** 20).toFixed(1)} MiB binary${note} (${Math.round(performance.now() - at)} ms)`);
  }
  packing.unshift(npmPack(launcherPackage(root, targets, out), out).then((p) => ({ name: LAUNCHER, ...p })));
  const packed = await Promise.all(packing);
  rmSync(join(out, "work"), { recursive: true, force: true });
  const files = [...packed.map((p) => join(out, p.tarball)), ...packed.flatMap((p) => (p.binary ? [p.binary.file] : []))];
  writeFileSync(join(out, "SHA256SUMS"), sha256sums(out, files));
  const listed = packed.map((p) => ({ ...p, binary: p.binary && { ...p.binary, file: relative(out, p.binary.file) } }));
  writeJson(join(out, "release.json"), { version: root.version, bun: Bun.version, launcher: LAUNCHER, packages: listed });
  for (const p of listed)
    console.log(
      `${p.name.padEnd(24)} ${p.tarball.padEnd(36)} ${kib(p.size).padStart(12)} packed ${kib(p.unpackedSize).padStart(12)} unpacked`,
    );
  console.error(
    `release:pack: ${packed.length} packages of od ${root.version} in ${relative(process.cwd(), out) || "."} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
  );
}

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

await main().catch((err: Error) => {
  console.error(`release:pack: ${err.message}`);
  process.exit(1);
});
