/**
 * od as users get it: `npm install -g @od-cli/od` from a registry that holds only what
 * `npm run release:pack` wrote (a local Verdaccio with no uplinks), into a fresh prefix, with
 * neither Bun nor this repository on PATH or as the working directory; then the od it gives runs
 * (version, agents, a run of the api agent against a loopback model, serve, plugins and skills,
 * doctor), and so does `npx @od-cli/od`. Slow (a 55 MB tarball per platform): `npm run test:pkg`
 * (test/pkg/lane.sh) builds the release and sets OD_PKG=1; plain `npm test` skips it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_TEXT, startModelStub } from "../live/model-stub.ts";
import { type Registry, startRegistry } from "./verdaccio.ts";
import {
  cleanPath,
  integrity,
  npm,
  npmFlags,
  printTimings,
  publishAll,
  RELEASE,
  type Release,
  readRelease,
  sh,
  shAsync,
  timed,
} from "./world.ts";

const ENABLED = process.env.OD_PKG === "1";
const HOST = `${process.platform}-${process.arch}`; // this machine is glibc: the plain package

describe.skipIf(!ENABLED)("od from npm, through a real registry", () => {
  let release: Release;
  let reg: Registry;
  let dir: string;
  let prefix: string;
  let env: Record<string, string>;
  const at = (p: string) => join(dir, p);
  const od = (args: string[], extra: Record<string, string> = {}) =>
    sh(["od", ...args], { cwd: at("work"), env: { ...env, ...extra }, check: false });

  beforeAll(async () => {
    release = readRelease();
    dir = mkdtempSync(join(tmpdir(), "od-pkg-"));
    for (const d of ["work", "home", "prefix"]) mkdirSync(at(d));
    prefix = at("prefix");
    env = { PATH: cleanPath(join(prefix, "bin")), HOME: at("home"), OD_HOME: at("home/.open-design"), NO_COLOR: "1" };
    reg = await timed("start Verdaccio (no uplinks)", () => startRegistry(at("registry")));
    // The platform packages first, the launcher last: as a release would, so no one installs a launcher whose binaries are missing.
    const platforms = release.packages.filter((p) => p.name !== release.launcher).map((p) => join(RELEASE, p.tarball));
    const launcher = join(RELEASE, release.packages.find((p) => p.name === release.launcher)!.tarball);
    await timed(`npm publish ${platforms.length} platform tarballs, 4 at a time`, () =>
      publishAll(reg, at("cache"), platforms, { cwd: at("work"), env }),
    );
    await timed("npm publish the launcher", () => publishAll(reg, at("cache"), [launcher], { cwd: at("work"), env }));
    await timed(`npm install -g --prefix <fresh> ${release.launcher}`, () =>
      npm(reg, at("cache-install"), ["install", "-g", "--prefix", prefix, release.launcher], { cwd: at("work"), env }),
    );
  }, 900_000);

  afterAll(async () => {
    printTimings();
    await reg?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const launcherDir = () => join(prefix, "lib/node_modules", release.launcher);
  const platformDir = () => join(launcherDir(), "node_modules", `${release.launcher.split("/")[0]}/${HOST}`);

  test("the registry serves exactly the tarballs release:pack wrote", () => {
    for (const p of release.packages) {
      const view = JSON.parse(npm(reg, at("cache"), ["view", `${p.name}@${release.version}`, "--json"], { cwd: at("work"), env }).out);
      expect(view.dist.integrity).toBe(integrity(join(RELEASE, p.tarball)));
      expect(view.scripts ?? {}).toEqual({}); // nothing runs at install: no download, no postinstall
    }
  });

  test("sizes: this platform's package is its binary plus at most 5%; the launcher's is under 20 KB", () => {
    const mine = release.packages.find((p) => p.name.endsWith(`/${HOST}`))!;
    for (const p of release.packages) expect(statSync(join(RELEASE, p.tarball)).size).toBe(p.size); // release.json tells the truth
    expect(statSync(join(RELEASE, mine.binary!.file)).size).toBe(mine.binary!.size);
    console.error(
      release.packages
        .map(
          (p) => `  ${p.name.padEnd(24)} ${p.size} B packed, ${p.unpackedSize} B unpacked${p.binary ? `, binary ${p.binary.size} B` : ""}`,
        )
        .join("\n"),
    );
    expect(mine.unpackedSize).toBeLessThanOrEqual(mine.binary!.size * 1.05);
    expect(mine.size).toBeLessThanOrEqual(mine.binary!.size * 1.05);
    const launcher = release.packages.find((p) => p.name === release.launcher)!;
    expect(launcher.size).toBeLessThan(20 * 1024);
    expect(launcher.unpackedSize).toBeLessThan(20 * 1024);
    expect(sh(["sha256sum", "--check", "--quiet", "SHA256SUMS"], { cwd: RELEASE, env }).code).toBe(0);
  });

  test("npm installed the launcher and only this platform's binary; no bun anywhere", () => {
    expect(readdirSync(join(launcherDir(), "node_modules", release.launcher.split("/")[0]!))).toEqual([HOST]);
    expect(statSync(join(platformDir(), "od")).mode & 0o111).toBeTruthy();
    expect(Bun.which("bun", { PATH: env.PATH })).toBeNull();
    expect(Bun.which("od", { PATH: env.PATH })).toBe(join(prefix, "bin/od"));
  });

  test("od --version: the version, then where it was installed from", () => {
    const r = od(["--version"]);
    expect(r.code).toBe(0);
    expect(r.out).toBe(`${release.version} (npm: ${release.launcher}, ${launcherDir()})\n`);
  });

  test("od agents lists the agents, the api one among them", () => {
    const r = od(["agents", "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.stringify(JSON.parse(r.out))).toContain('"api"');
    expect(od(["agents"]).code).toBe(0);
  });

  test("od run --agent api against a loopback OpenAI-compatible model", async () => {
    const stub = await startModelStub();
    try {
      stub.script({ kind: "chat" });
      const r = await timed("od run --agent api", () =>
        shAsync(["od", "run", "--agent", "api", "say hi"], { cwd: at("work"), env: { ...env, OD_API_BASE_URL: `${stub.url}/v1` } }),
      );
      expect(r.code, r.err).toBe(0);
      expect(r.out).toContain(DEFAULT_TEXT);
    } finally {
      await stub.stop();
    }
  });

  test("od serve answers /api/health", async () => {
    const serve = Bun.spawn(["od", "serve", "--port", "0"], { cwd: at("work"), env, stdout: "pipe", stderr: "pipe" });
    try {
      const reader = serve.stdout.getReader();
      let text = "";
      while (!/od serve: (http:\S+)/.test(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`od serve ended: ${await new Response(serve.stderr).text()}`);
        text += new TextDecoder().decode(value);
      }
      const base = new URL(text.match(/od serve: (http:\S+)/)![1]!).origin;
      expect(await (await fetch(`${base}/api/health`)).json()).toEqual({ ok: true });
    } finally {
      serve.kill("SIGINT");
      await serve.exited;
    }
  });

  test("plugins and skills: from ~/.open-design and beside the binary, as from a clone", () => {
    const plugin = (id: string) =>
      `export default (od) => od.defineAdapter({ id: "${id}", name: "${id}", install: "none", bin: "${id}", capabilities: { streaming: false, resume: false, readOnly: false }, prompt: { via: "stdin" }, invoke: () => ({ argv: [] }), protocol: od.defineLinesProtocol({ createState: () => ({}), parse: () => [] }) });\n`;
    mkdirSync(at("home/.open-design/plugins"), { recursive: true });
    writeFileSync(at("home/.open-design/plugins/home-hello.js"), plugin("home-hello"));
    mkdirSync(join(platformDir(), "plugins"));
    writeFileSync(join(platformDir(), "plugins/beside-hello.js"), plugin("beside-hello"));
    mkdirSync(at("home/.open-design/skills/hello-skill"), { recursive: true });
    writeFileSync(
      at("home/.open-design/skills/hello-skill/SKILL.md"),
      "---\nname: hello-skill\ndescription: Says hello.\n---\nSay hello.\n",
    );
    const listed = JSON.parse(od(["plugins", "--json"]).out);
    expect(listed.dirs).toEqual([at("home/.open-design/plugins"), join(platformDir(), "plugins")]);
    expect(listed.errors).toEqual([]);
    const ids = listed.adapters.map((a: { id: string }) => a.id);
    expect(ids).toContain("home-hello");
    expect(ids).toContain("beside-hello");
    expect(od(["skills", "--json"]).out).toContain("hello-skill");
  });

  test("od doctor: this od, and a newer one installed beside it", () => {
    const newer = at("newer/lib/node_modules/@od-cli/od");
    mkdirSync(join(newer, "bin"), { recursive: true });
    writeFileSync(join(newer, "package.json"), JSON.stringify({ name: release.launcher, version: "99.0.0" }));
    writeFileSync(join(newer, "bin/od.js"), "#!/usr/bin/env node\n");
    mkdirSync(at("newer/bin"));
    symlinkSync("../lib/node_modules/@od-cli/od/bin/od.js", at("newer/bin/od"));
    const r = od(["doctor", "--no-refresh"], { PATH: cleanPath(join(prefix, "bin"), at("newer/bin")) });
    expect(r.out).toContain(`✓ od ${release.version} (npm: ${release.launcher}, ${launcherDir()})`);
    expect(r.out).toContain(
      `! a newer od is installed beside this one: 99.0.0 (npm: ${release.launcher}, ${newer}), on PATH as ${at("newer/bin/od")}`,
    );
    expect(r.out).toContain(`update this one: npm install -g ${release.launcher}`);
  });

  test("npx @od-cli/od --version, from an empty folder with no od installed and an empty npm cache", async () => {
    mkdirSync(at("npx"));
    const npx = [...npmFlags(reg, at("cache-npx")), "--yes", release.launcher, "--version"];
    const r = await timed("npx @od-cli/od --version (cold cache)", () =>
      sh(["npx", ...npx], { cwd: at("npx"), env: { ...env, PATH: cleanPath() } }),
    );
    expect(r.out).toMatch(
      new RegExp(
        `^${release.version.replaceAll(".", "\\.")} \\(npm: ${release.launcher}, .*/_npx/[0-9a-f]+/node_modules/${release.launcher}\\)\\n$`,
      ),
    );
  });

  // The arm64 binary, where Debian's qemu-user-static and arm64 C library are installed (the lane does not install them).
  const QEMU = Bun.which("qemu-aarch64-static") && existsSync("/usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1");
  const arm = () => readRelease().packages.find((p) => p.name.endsWith("/linux-arm64"));
  test.if(Boolean(QEMU) && Boolean(ENABLED && arm()))("the linux-arm64 package's binary runs (under qemu)", () => {
    const arm64 = arm()!;
    const pkg = at("arm/node_modules/@od-cli/linux-arm64");
    mkdirSync(pkg, { recursive: true });
    sh(["tar", "xzf", join(RELEASE, arm64.tarball), "-C", pkg, "--strip-components=1"], { cwd: dir, env });
    const r = sh(["qemu-aarch64-static", "-L", "/usr/aarch64-linux-gnu", join(pkg, "od"), "--version"], { cwd: dir, env });
    expect(r.out).toBe(`${release.version} (npm: @od-cli/linux-arm64, ${pkg})\n`);
    expect(arm64.binary!.helper).toBe(true);
  });
});
