import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { Support } from "../../../src/core/os/sandbox/choose.ts";
import { cachedSandboxSupport, machineKey, runSandboxSupport, supportCachePath } from "../../../src/core/os/sandbox/support-cache.ts";
import { tmpdir } from "../../helpers.ts";

const LANDLOCK: Support = { kind: "landlock", abi: 7, protect: true };

/** A probe that counts how often the helper would have been placed and run. */
function probeOf(support: Support) {
  const probe = () => {
    probe.calls++;
    return support;
  };
  probe.calls = 0;
  return probe;
}

describe.if(process.platform === "linux")("the sandbox support that od agents and a dry run show", () => {
  test("probed once, then read back while the machine's key holds; a new key probes again", async () => {
    await using tmp = tmpdir();
    const env = { OD_HOME: tmp.path };
    const probe = probeOf(LANDLOCK);
    expect(cachedSandboxSupport(env, { keep: true, probe, key: () => "boot-a" })).toEqual(LANDLOCK);
    expect(cachedSandboxSupport(env, { keep: true, probe, key: () => "boot-a" })).toEqual(LANDLOCK);
    expect(probe.calls).toBe(1);
    expect(cachedSandboxSupport(env, { keep: true, probe, key: () => "boot-b" })).toEqual(LANDLOCK);
    expect(probe.calls).toBe(2);
  });

  test("an answer without Landlock is not kept, nor anything without a key; a broken file is probed over", async () => {
    await using tmp = tmpdir();
    const env = { OD_HOME: tmp.path };
    const none = probeOf({ kind: "none", reason: "the sandbox helper did not run: exit 1" });
    cachedSandboxSupport(env, { keep: true, probe: none, key: () => "k" });
    cachedSandboxSupport(env, { keep: true, probe: none, key: () => "k" });
    expect(none.calls).toBe(2);
    expect(existsSync(supportCachePath(env))).toBe(false);
    const unkeyed = probeOf(LANDLOCK);
    cachedSandboxSupport(env, { keep: true, probe: unkeyed, key: () => undefined });
    cachedSandboxSupport(env, { keep: true, probe: unkeyed, key: () => undefined });
    expect(unkeyed.calls).toBe(2);
    writeFileSync(supportCachePath(env), "{not json");
    const probe = probeOf(LANDLOCK);
    expect(cachedSandboxSupport(env, { keep: true, probe, key: () => "k" })).toEqual(LANDLOCK);
    expect(probe.calls).toBe(1);
    expect(JSON.parse(readFileSync(supportCachePath(env), "utf8"))).toEqual({ key: "k", support: LANDLOCK });
  });

  test("a kept answer of the wrong shape (hand-edited, another od's) is probed over, and nothing but its fields comes back", async () => {
    await using tmp = tmpdir();
    const env = { OD_HOME: tmp.path };
    for (const support of [
      { kind: "landlock", abi: "7" },
      { kind: "landlock", abi: 7, protect: "yes" },
      { kind: "landlock", abi: 7, reason: 3 },
      { kind: "landlock" },
      null,
    ]) {
      writeFileSync(supportCachePath(env), JSON.stringify({ key: "k", support }));
      const probe = probeOf(LANDLOCK);
      expect(cachedSandboxSupport(env, { probe, key: () => "k" })).toEqual(LANDLOCK);
      expect(probe.calls).toBe(1);
    }
    writeFileSync(supportCachePath(env), JSON.stringify({ key: "k", support: { ...LANDLOCK, extra: "x" } }));
    expect(cachedSandboxSupport(env, { probe: probeOf(LANDLOCK), key: () => "k" })).toEqual(LANDLOCK);
  });

  test("a run takes a kept answer only when it is the whole one: anything less, anyone's to write, is probed", async () => {
    await using tmp = tmpdir();
    const env = { OD_HOME: tmp.path };
    writeFileSync(supportCachePath(env), JSON.stringify({ key: "k", support: LANDLOCK }));
    const whole = probeOf(LANDLOCK);
    expect(runSandboxSupport(env, { probe: whole, key: () => "k" })).toEqual(LANDLOCK);
    expect(whole.calls).toBe(0);
    const less = { kind: "landlock", abi: 7, protect: false, reason: "no user namespaces" };
    writeFileSync(supportCachePath(env), JSON.stringify({ key: "k", support: less }));
    const probe = probeOf(LANDLOCK);
    expect(runSandboxSupport(env, { probe, key: () => "k" })).toEqual(LANDLOCK);
    expect(probe.calls).toBe(1);
  });

  test("a dry run reads what od agents kept, and writes nothing itself", async () => {
    await using tmp = tmpdir();
    const env = { OD_HOME: tmp.path };
    const probe = probeOf(LANDLOCK);
    expect(cachedSandboxSupport(env, { probe, key: () => "k" })).toEqual(LANDLOCK);
    expect(existsSync(supportCachePath(env))).toBe(false);
    cachedSandboxSupport(env, { keep: true, probe, key: () => "k" });
    expect(cachedSandboxSupport(env, { probe, key: () => "k" })).toEqual(LANDLOCK);
    expect(probe.calls).toBe(2);
  });

  test("the key names this boot and this od, and is the same for the same process", () => {
    const key = machineKey();
    expect(key).toContain(readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim());
    expect(key).toContain(process.execPath);
    expect(machineKey()).toBe(key);
  });
});
