/**
 * The launcher (packaging/launcher/bin/od.js) in an npm-shaped node_modules, in front of a fake
 * binary: it picks the platform package, passes argv, stdin and the exit status through, ends by
 * the signal that ended od, passes a kill on, and does not double the Ctrl-C a terminal already
 * gave od. Runs with the `node` on PATH (Node 20 here: the spawn path); OD_LAUNCHER_NODE picks
 * another (the pkg lane runs it again on Node 22, where the launcher becomes od with execve).
 */
import { describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { launcherManifest } from "../../scripts/release/manifests.ts";
import { LAUNCHER, TARGETS } from "../../scripts/release/targets.ts";
import { ROOT, tmpdir } from "../helpers.ts";

const NODE = process.env.OD_LAUNCHER_NODE || Bun.which("node");
const HOST = `${process.platform}-${process.arch}`;
const LINUX = process.platform === "linux";
const EXECVE = Boolean(NODE) && Bun.spawnSync([NODE!, "-p", "typeof process.execve"]).stdout.toString().trim() === "function";

/** node_modules with the launcher at `version` and the given platform packages (their `od` is the fake). */
function install(dir: string, platforms: Record<string, string>, version = "1.2.3"): string {
  const modules = join(dir, "node_modules");
  const launcher = join(modules, LAUNCHER);
  mkdirSync(join(launcher, "bin"), { recursive: true });
  copyFileSync(join(ROOT, "packaging/launcher/bin/od.js"), join(launcher, "bin/od.js"));
  writeFileSync(join(launcher, "package.json"), JSON.stringify(launcherManifest({ version }, TARGETS)));
  for (const [id, v] of Object.entries(platforms)) {
    const pkg = join(modules, `${LAUNCHER.split("/")[0]}/${id}`);
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: `${LAUNCHER.split("/")[0]}/${id}`, version: v }));
    copyFileSync(join(import.meta.dir, "fake-od.cjs"), join(pkg, "od"));
  }
  return join(launcher, "bin/od.js");
}

function run(launcher: string, args: string[], env: Record<string, string> = {}, stdin = "") {
  const p = Bun.spawnSync([NODE!, launcher, ...args], {
    env: { ...process.env, ...env },
    stdin: Buffer.from(stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: p.exitCode, signal: p.signalCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

async function waitFor(file: string, text: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const got = (() => {
      try {
        return readFileSync(file, "utf8");
      } catch {
        return "";
      }
    })();
    if (got.includes(text)) return got;
    await Bun.sleep(25);
  }
  throw new Error(`${file} never said ${text}`);
}

describe.skipIf(!NODE || process.platform === "win32")("the launcher", () => {
  test("runs this platform's binary with the same argv and stdin, and passes its exit code back", async () => {
    await using tmp = tmpdir();
    const launcher = install(tmp.path, { [HOST]: "1.2.3" });
    const args = ["run", "--agent", "api", "a b", 'say "hi" $HOME', "汉字 😀", ""];
    const p = Bun.spawn([NODE!, launcher, ...args], {
      env: { ...process.env, FAKE_EXIT: "3" },
      stdin: Buffer.from("from stdin\n"),
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    expect(code).toBe(3);
    expect(JSON.parse(out)).toMatchObject({ argv: args, stdin: "from stdin\n" });
    expect(err).toBe("");
    // Where Node has execve (22.15+), the launcher becomes od: one process, one pid.
    expect(JSON.parse(out).pid === p.pid).toBe(EXECVE);
  });

  test("ends by the signal that ended od", async () => {
    await using tmp = tmpdir();
    const r = run(install(tmp.path, { [HOST]: "1.2.3" }), [], { FAKE_MODE: "suicide" });
    expect(r.signal).toBe("SIGTERM");
  });

  test("a missing platform package is named, with the reinstall command; a mismatched one is run with a warning", async () => {
    await using tmp = tmpdir();
    const missing = run(install(join(tmp.path, "a"), {}), ["--version"]);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain(`${LAUNCHER.split("/")[0]}/${HOST}, the package with od's binary for this platform, is not installed`);
    expect(missing.err).toContain(`npm install -g ${LAUNCHER}@1.2.3`);
    const mismatched = run(install(join(tmp.path, "b"), { [HOST]: "1.2.2" }), ["x"]);
    expect(mismatched.code).toBe(0);
    expect(mismatched.err).toContain("is 1.2.2, @od-cli/od is 1.2.3");
  });

  test.if(LINUX)("on Linux, the other C library's package when this one's is missing", async () => {
    await using tmp = tmpdir();
    const r = run(install(tmp.path, { [`${HOST}-musl`]: "1.2.3" }), ["x"]); // this machine is glibc
    expect(JSON.parse(r.out).argv).toEqual(["x"]);
  });

  test("a kill reaches od once, and od's exit status comes back", async () => {
    await using tmp = tmpdir();
    const log = join(tmp.path, "log");
    const p = Bun.spawn([NODE!, install(tmp.path, { [HOST]: "1.2.3" })], { env: { ...process.env, FAKE_MODE: "signals", FAKE_LOG: log } });
    await waitFor(log, "ready");
    process.kill(p.pid, "SIGTERM");
    expect(await p.exited).toBe(143);
    expect(readFileSync(log, "utf8").match(/SIGTERM/g)).toEqual(["SIGTERM"]);
  });

  // A real terminal (util-linux `script` makes a pty): Ctrl-C goes to the foreground group, od included.
  test.if(LINUX && Boolean(Bun.which("script")))("Ctrl-C at a terminal reaches od once, not twice", async () => {
    await using tmp = tmpdir();
    const log = join(tmp.path, "log");
    const launcher = install(tmp.path, { [HOST]: "1.2.3" });
    const p = Bun.spawn(["script", "-qefc", `'${NODE}' '${launcher}'`, "/dev/null"], {
      env: { ...process.env, FAKE_MODE: "signals", FAKE_LOG: log },
      stdin: "pipe",
      stdout: "pipe",
    });
    await waitFor(log, "ready");
    p.stdin.write("\x03");
    p.stdin.flush();
    expect(await p.exited).toBe(130);
    await Bun.sleep(300); // a second copy would arrive by now, and be logged
    expect(readFileSync(log, "utf8").match(/SIGINT \d/g)).toEqual(["SIGINT 1"]);
  });
});
