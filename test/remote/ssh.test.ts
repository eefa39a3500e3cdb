/**
 * Runs through a real OpenSSH server on loopback (test/support/sshd.ts): the fake agent on the
 * "remote" side, reached by od's own ssh argv. Skipped, with the reason, where sshd is not installed.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createRegistry } from "../../src/core/agents/registry.ts";
import { findMarked, runMark } from "../../src/core/os/reap.ts";
import { collect, finished, installFake, ofType, tmpdir } from "../helpers.ts";
import { gone, killAll } from "../supervision/support.ts";
import { fakeAdapter } from "../support/fake-adapter.ts";
import { HOSTILE } from "../support/hostile.ts";
import { runAgent } from "../support/run.ts";
import { type Sshd, sshdMissing, startSshd } from "../support/sshd.ts";

const registry = createRegistry([fakeAdapter]);

if (sshdMissing) test.skip(`ssh:// targets: skipped, ${sshdMissing}`, () => {});
else describe("ssh:// through a real OpenSSH server", suite);

function suite() {
  let tmp: ReturnType<typeof tmpdir>;
  let sshd: Sshd;
  let env: Record<string, string>;
  let fake: ReturnType<typeof installFake>;

  beforeAll(async () => {
    tmp = tmpdir();
    fake = installFake(tmp.path, "fake-agent", [
      { read: "all" },
      {
        ifStdin: "hang",
        then: [{ stdout: { t: "text", v: "working" } }, { hang: true }],
        else: [
          { stdout: { t: "session", v: "remote-1" } },
          { stdout: { t: "tool", id: "c1", name: "Write" } },
          { stdout: { t: "result", id: "c1" } },
          { stdout: { t: "text", v: "REMOTE_OK" } },
        ],
      },
    ]);
    sshd = await startSshd(tmp.path, `${join(tmp.path, "bin")}:/usr/bin:/bin`);
    env = { ...fake.env, PATH: `${sshd.bin}:${fake.env.PATH}` };
  }, 30_000);

  afterAll(async () => {
    await sshd?.stop();
    await tmp?.[Symbol.asyncDispose]();
  });

  test("a chat with a tool call comes back; the prompt arrived whole on the target", async () => {
    const prompt = HOSTILE.join("|");
    const events = await collect(runAgent({ agent: "fake", prompt, cwd: tmp.path, on: sshd.target }, { registry, env }));
    expect(ofType(events, "error")).toEqual([]);
    expect(finished(events)).toMatchObject({ status: "succeeded", sessionId: "remote-1" });
    expect(ofType(events, "tool.call")[0]).toMatchObject({ id: "c1", name: "Write" });
    expect(ofType(events, "text.delta").map((e) => e.text)).toEqual(["REMOTE_OK"]);
    expect(fake.recorded().stdin.join("\n")).toBe(prompt.replace(/\r?\n$/, ""));
  }, 20_000);

  test("hostile arguments arrive byte-identical", async () => {
    const model = "m'o\"d $(id) `x` ; & | ☃";
    await collect(runAgent({ agent: "fake", prompt: "hi", cwd: tmp.path, on: sshd.target, model }, { registry, env }));
    expect(fake.recorded().argv).toEqual(["--mode", "edit", "--model", model]);
  }, 20_000);

  test("a cancel ends the remote process group", async () => {
    const controller = new AbortController();
    let runId = "";
    const events = [];
    for await (const e of runAgent(
      { agent: "fake", prompt: "hang", cwd: tmp.path, on: sshd.target },
      { registry, env, signal: controller.signal },
    )) {
      events.push(e);
      runId = e.runId;
      if (e.type === "text.delta") controller.abort();
    }
    expect(finished(events).status).toBe("cancelled");
    const left = await gone(() => findMarked([runMark(runId)]), 5000);
    killAll(left);
    expect(left).toEqual([]);
  }, 20_000);

  test("a killed connection ends the remote process group within 5 s", async () => {
    let runId = "";
    for await (const e of runAgent({ agent: "fake", prompt: "hang", cwd: tmp.path, on: sshd.target }, { registry, env })) {
      runId = e.runId;
      if (e.type !== "text.delta") continue;
      expect(findMarked([runMark(runId)]).length).toBeGreaterThan(0);
      // The connection dies: every ssh client of this test's server (od's run, and its master).
      Bun.spawnSync(["pkill", "-KILL", "-f", `ssh -F ${join(tmp.path, "ssh-test")}`]);
      Bun.spawnSync(["pkill", "-KILL", "-f", `/usr/bin/ssh -F ${join(tmp.path, "ssh-test")}`]);
      const left = await gone(() => findMarked([runMark(runId)]), 5000);
      killAll(left);
      expect(left).toEqual([]);
      break;
    }
  }, 20_000);
}
