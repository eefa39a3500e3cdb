/**
 * Detection on a target (`od agents --on`), with a recording stand-in for ssh that runs the script
 * here: one round trip for every adapter, versions parsed as locally, a cache per target.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createRegistry } from "../../../src/core/agents/registry.ts";
import type { Adapter } from "../../../src/core/contract/adapter.ts";
import { OdError } from "../../../src/core/contract/errors.ts";
import { detectOnTargetCached } from "../../../src/core/remote/detect-cache.ts";
import { parseTarget } from "../../../src/core/remote/target.ts";
import { tmpdir } from "../../helpers.ts";
import { fakeAdapter } from "../../support/fake-adapter.ts";
import { executable, recordingEngine } from "./engine.ts";

const cli = (id: string, bin: string, more: Record<string, unknown> = {}) =>
  ({ ...fakeAdapter, id, name: id, bin, version: { args: ["--version"] }, detect: {}, ...more }) as typeof fakeAdapter;
const parse = (o: string) => /cli-a v(\S+)/.exec(o)?.[1];
const adapters: Adapter[] = createRegistry([
  cli("a", "cli-a", { version: { args: ["--version"], parse }, detect: { configDir: ".cli-a" } }),
  cli("a-acp", "cli-a", { version: { args: ["--version"], parse } }),
  cli("a-new", "cli-a", { version: { args: ["--version"], parse }, detect: { minVersion: "2.0.0" } }),
  cli("broken", "cli-broken"),
  cli("slow", "cli-slow", { detect: { timeoutMs: 1000 } }),
  cli("absent", "we'ird $(touch pwned) name"),
])
  .list()
  .map((e) => e.adapter);

function setup(dir: string) {
  const bin = join(dir, "bin");
  const engine = recordingEngine(bin);
  executable(bin, "cli-a", `echo x >> '${join(dir, "a.count")}'; echo 'cli-a v1.4.2 (build 7)'`);
  executable(bin, "cli-broken", "echo 'boom: no libc' >&2; exit 3");
  executable(bin, "cli-slow", "exec sleep 30");
  mkdirSync(join(dir, ".cli-a"));
  const env = { PATH: `${bin}:/usr/bin:/bin`, HOME: dir, OD_HOME: join(dir, ".od") };
  return { engine, env };
}

describe("od agents --on <target>", () => {
  test("one round trip finds each CLI on the target's PATH, with its version, config folder and state", async () => {
    await using tmp = tmpdir();
    const { engine, env } = setup(tmp.path);
    const started = performance.now();
    const { detections, cached } = await detectOnTargetCached(adapters, parseTarget("ssh://me@box:2222"), { env });
    expect(performance.now() - started).toBeLessThan(8000); // the slow one was cut at its 1 s limit
    expect(cached).toEqual([]);
    expect(engine.calls().length).toBe(1);
    expect(engine.calls()[0]!.slice(-2, -1)).toEqual(["me@box"]);
    const by = Object.fromEntries(detections.map((d) => [d.id, d]));
    expect(by.a).toMatchObject({
      status: "ready",
      installed: true,
      confident: true,
      path: join(tmp.path, "bin", "cli-a"),
      version: "1.4.2",
      versionFrom: "probe",
      configDir: join(tmp.path, ".cli-a"),
      auth: "unknown",
    });
    expect(by["a-acp"]).toMatchObject({ status: "ready", version: "1.4.2" });
    expect(by["a-new"]).toMatchObject({ status: "outdated", version: "1.4.2" });
    expect(Bun.file(join(tmp.path, "a.count")).size).toBe(2); // one `cli-a --version` for three adapters ("x\n")
    expect(by.broken).toMatchObject({ status: "broken", installed: false });
    expect(by.broken!.problems[0]!.message).toContain("exited with 3: boom: no libc");
    expect(by.slow).toMatchObject({ status: "ready", installed: true });
    expect(by.slow!.version).toBeUndefined();
    expect(by.slow!.problems[0]!.code).toBe("PROBE_SLOW");
    expect(by.absent).toMatchObject({ status: "missing", installed: false });
    expect(by.absent!.problems[0]!.message).toContain("is not on the PATH of ssh://me@box:2222");
    expect(await Bun.file(join(tmp.path, "pwned")).exists()).toBe(false);
  }, 20_000);

  test("the answer is cached per target; --refresh asks again; another target is asked on its own", async () => {
    await using tmp = tmpdir();
    const { engine, env } = setup(tmp.path);
    const quick = adapters.filter((a) => a.id !== "slow"); // an answer with a slow probe is not kept
    const box = parseTarget("ssh://box");
    await detectOnTargetCached(quick, box, { env });
    const again = await detectOnTargetCached(quick, box, { env });
    expect(again.cached).toEqual(quick.map((a) => a.id));
    expect(again.detections.find((d) => d.id === "a")?.version).toBe("1.4.2");
    expect(engine.calls().length).toBe(1);
    await detectOnTargetCached(quick, box, { env, refresh: true });
    expect(engine.calls().length).toBe(2);
    await detectOnTargetCached(quick, parseTarget("ssh://other"), { env });
    expect(engine.calls().length).toBe(3);
    // A day later the cached answer is stale.
    await detectOnTargetCached(quick, box, { env, now: Date.now() + 25 * 3600_000 });
    expect(engine.calls().length).toBe(4);
  }, 20_000);

  test("an unreachable target is TARGET_UNREACHABLE with the engine's hint, and nothing is cached", async () => {
    await using tmp = tmpdir();
    const { env } = setup(tmp.path);
    executable(join(tmp.path, "bin"), "ssh", "echo 'ssh: connect to host box port 22: Connection refused' >&2; exit 255");
    const err = await detectOnTargetCached(adapters, parseTarget("ssh://box"), { env }).catch((e) => e);
    expect(err).toBeInstanceOf(OdError);
    expect(err).toMatchObject({ code: "TARGET_UNREACHABLE", hint: expect.stringContaining("ssh box") });
    expect(err.message).toContain("Connection refused");
    const docker = await detectOnTargetCached(adapters, parseTarget("docker://gone"), { env }).catch((e) => e);
    expect(docker).toMatchObject({ code: "TARGET_UNREACHABLE" });
  });
});
