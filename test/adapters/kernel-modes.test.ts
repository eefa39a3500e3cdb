/**
 * The agents whose CLIs have no flag that holds read-only or edit (headless, they run every tool
 * unasked) get those modes where the kernel holds them. Each is proven with a fake under its own
 * name that ignores whatever od passes and writes with the shell: in the working directory, and
 * beside it.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadRegistry } from "../../src/builtins.ts";
import { sandboxSupport } from "../../src/core/os/sandbox/choose.ts";
import { machineKey, supportCachePath } from "../../src/core/os/sandbox/support-cache.ts";
import { collect, FAKE_ACP, installFake, ofType, tmpdir } from "../helpers.ts";
import { planRun, runAgent } from "../support/run.ts";

const registry = await loadRegistry([]);
const support = sandboxSupport();

/** The six, by how each talks: a line stream (a plain fake) or ACP (the scripted ACP fake). */
const AGENTS = [
  { id: "kimi", acp: false },
  { id: "crush", acp: false },
  { id: "auggie", acp: true },
  { id: "openclaw", acp: true },
  { id: "poolside", acp: true },
  { id: "mux", acp: true },
];

async function attempt(id: string, acp: boolean, mode: "read-only" | "edit") {
  await using fakeDir = tmpdir(); // the fake's script and record
  await using place = tmpdir();
  const work = join(place.path, "work");
  const beside = join(place.path, "beside");
  mkdirSync(work);
  mkdirSync(beside);
  const writes = `printf x > "${join(work, "in-cwd.txt")}"; printf x > "${join(beside, "leak.txt")}"`;
  const adapter = registry.get(id)!.adapter;
  const script = acp ? { turn: [{ sh: writes }] } : [{ sh: writes }, { read: "all" }];
  const fake = installFake(fakeDir.path, adapter.bin, script, acp ? FAKE_ACP : undefined);
  const events = await collect(
    runAgent({ agent: id, prompt: "write where you like", cwd: work, mode }, { registry, env: { ...fake.env, HOME: place.path } }),
  );
  return {
    events,
    started: ofType(events, "run.started")[0],
    ran: existsSync(join(fakeDir.path, `${adapter.bin}.record.json`)),
    inCwd: existsSync(join(work, "in-cwd.txt")),
    leaked: existsSync(join(beside, "leak.txt")),
  };
}

describe.skipIf(support.kind !== "landlock")(`modes the kernel alone holds (${support.kind})`, () => {
  for (const { id, acp } of AGENTS)
    test(`${id}: read-only is accepted and holds; edit writes the working directory only`, async () => {
      const ro = await attempt(id, acp, "read-only");
      expect(ofType(ro.events, "error").filter((e) => e.code === "INVALID_REQUEST")).toEqual([]);
      expect(ro.started?.sandbox?.kind).toBe("landlock");
      expect(ro.ran).toBe(true);
      expect({ inCwd: ro.inCwd, leaked: ro.leaked }).toEqual({ inCwd: false, leaked: false });
      const edit = await attempt(id, acp, "edit");
      expect(edit.ran).toBe(true);
      expect({ inCwd: edit.inCwd, leaked: edit.leaked }).toEqual({ inCwd: true, leaked: false });
    });

  test("codex's own sandbox (bubblewrap) cannot start inside od's: its flags are a full run's, od's holds the mode, and the header says so", async () => {
    await using tmp = tmpdir();
    const env = { HOME: tmp.path, OD_HOME: join(tmp.path, ".od"), PATH: "/usr/bin:/bin" };
    const held = await planRun({ agent: "codex", prompt: "x", cwd: tmp.path, mode: "read-only" }, { registry, env });
    expect(held.argv).toContain("--dangerously-bypass-approvals-and-sandbox");
    expect(held.sandbox).toMatchObject({ kind: "landlock", note: expect.stringContaining("own sandbox cannot start inside od's") });
    const alone = await planRun(
      { agent: "codex", prompt: "x", cwd: tmp.path, mode: "read-only" },
      { registry, env: { ...env, OD_SANDBOX: "off" } },
    );
    expect(alone.argv.join(" ")).toContain("--sandbox read-only");
    const acp = await planRun({ agent: "codex-acp", prompt: "x", cwd: tmp.path, mode: "edit" }, { registry, env });
    expect(acp.envKeys).toContain("INITIAL_AGENT_MODE");
  });

  test("a kept sandbox.json cannot make a run weaker: one that says less than the whole is probed over", async () => {
    await using tmp = tmpdir();
    const env = { HOME: tmp.path, OD_HOME: join(tmp.path, ".od"), PATH: "/usr/bin:/bin" };
    mkdirSync(join(tmp.path, "work", ".git"), { recursive: true });
    mkdirSync(env.OD_HOME);
    // What a full-mode agent could write, key and all (every part of it is readable): "a .git cannot be held".
    const forged = { kind: "landlock", abi: support.abi, protect: false, reason: "forged: no user namespaces" };
    writeFileSync(supportCachePath(env), JSON.stringify({ key: machineKey(), support: forged }));
    const plan = await planRun({ agent: "kimi", prompt: "x", cwd: join(tmp.path, "work"), mode: "edit" }, { registry, env });
    expect(plan.sandbox?.kind).toBe("landlock");
    expect(plan.sandbox?.note).toBeUndefined(); // the probe's answer: the .git is held read-only
  });

  test("without the kernel (--sandbox off) they are refused those modes, as before", async () => {
    await using tmp = tmpdir();
    const env = { HOME: tmp.path, OD_HOME: join(tmp.path, ".od"), PATH: "/usr/bin:/bin", OD_SANDBOX: "off" };
    for (const { id } of AGENTS) {
      const events = await collect(runAgent({ agent: id, prompt: "x", cwd: tmp.path, mode: "read-only" }, { registry, env }));
      expect(ofType(events, "error")[0], id).toMatchObject({ code: "INVALID_REQUEST", message: expect.stringContaining("--sandbox off") });
    }
  });
});
