/**
 * Detection and run.result's changes through a real OpenSSH server on loopback (test/support/sshd.ts):
 * `od agents --on` finds the target's CLIs by the target's PATH and HOME, and a run's files and diff
 * are the target's git's. Skipped, with the reason, where sshd is not installed.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createRegistry } from "../../src/core/agents/registry.ts";
import { detectOnTargetCached } from "../../src/core/remote/detect-cache.ts";
import { parseTarget } from "../../src/core/remote/target.ts";
import { executable } from "../core/remote/engine.ts";
import { collect, finished, installFake, ofType, tmpdir } from "../helpers.ts";
import { fakeAdapter } from "../support/fake-adapter.ts";
import { runAgent } from "../support/run.ts";
import { type Sshd, sshdMissing, startSshd } from "../support/sshd.ts";

const versioned = {
  ...fakeAdapter,
  id: "cli-v",
  name: "CLI V",
  bin: "cli-v",
  version: { args: ["--version"] },
  detect: { configDir: ".cli-v" },
};
const absent = { ...fakeAdapter, id: "absent", name: "Absent", bin: "no-such-cli" };
const registry = createRegistry([fakeAdapter, versioned, absent]);

if (sshdMissing) test.skip(`ssh:// detection and changes: skipped, ${sshdMissing}`, () => {});
else describe("ssh:// detection and changes through a real OpenSSH server", suite);

function suite() {
  let tmp: ReturnType<typeof tmpdir>;
  let sshd: Sshd;
  let env: Record<string, string>;
  const remoteHome = () => join(tmp.path, "remote-home");

  beforeAll(async () => {
    tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-agent", [
      { read: "all" },
      { touch: "a.txt" },
      { touch: "new.txt" },
      { stdout: { t: "text", v: "ok" } },
    ]);
    executable(join(tmp.path, "bin"), "cli-v", "echo 'cli-v version 3.1.4'");
    mkdirSync(join(remoteHome(), ".cli-v"), { recursive: true });
    sshd = await startSshd(tmp.path, `${join(tmp.path, "bin")}:/usr/bin:/bin`, { HOME: remoteHome(), OD_REMOTE_NOTE: "a b" });
    env = { ...fake.env, PATH: `${sshd.bin}:${fake.env.PATH}` };
  }, 30_000);

  afterAll(async () => {
    await sshd?.stop();
    await tmp?.[Symbol.asyncDispose]();
  });

  test("od agents --on: the target's CLIs, by its PATH and its HOME, in one connection", async () => {
    const adapters = registry.list().map((e) => e.adapter);
    const { detections } = await detectOnTargetCached(adapters, parseTarget(sshd.target), { env, refresh: true });
    const by = Object.fromEntries(detections.map((d) => [d.id, d]));
    expect(by["cli-v"]).toMatchObject({
      status: "ready",
      version: "3.1.4",
      path: join(tmp.path, "bin", "cli-v"),
      configDir: join(remoteHome(), ".cli-v"),
      confident: true,
      auth: "unknown",
    });
    expect(by.fake).toMatchObject({ installed: true, path: join(tmp.path, "bin", "fake-agent") });
    expect(by.absent).toMatchObject({ status: "missing" });
    const again = await detectOnTargetCached(adapters, parseTarget(sshd.target), { env });
    expect(again.cached).toEqual(adapters.map((a) => a.id));
  }, 30_000);

  test("a run's files and diff are taken on the target with its git", async () => {
    const work = join(tmp.path, "repo");
    mkdirSync(work);
    const git = (script: string) => Bun.spawnSync(["sh", "-c", script], { cwd: work }).stdout.toString();
    git("git init -q && echo one > a.txt && git add a.txt && git -c user.name=t -c user.email=t@t commit -qm init");
    const events = await collect(runAgent({ agent: "fake", prompt: "go", cwd: work, on: sshd.target }, { registry, env }));
    expect(finished(events).status).toBe("succeeded");
    const result = ofType(events, "run.result")[0]!;
    expect(result.files).toEqual(["a.txt", "new.txt"]);
    expect(result.diff).toContain("-one\n+written by the fake agent");
    expect(result.diff).toContain("new file mode");
    expect(git("git status --porcelain")).toBe(" M a.txt\n?? new.txt\n");
  }, 30_000);

  test("outside git the run's summary says so, and lists nothing", async () => {
    const work = join(tmp.path, "plain");
    mkdirSync(work);
    const events = await collect(runAgent({ agent: "fake", prompt: "go", cwd: work, on: sshd.target }, { registry, env }));
    expect(ofType(events, "run.result")[0]).toMatchObject({ files: [], note: expect.stringContaining("not in a git work tree") });
  }, 30_000);
}
