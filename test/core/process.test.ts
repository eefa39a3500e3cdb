import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { AgentProcess, groupMembers } from "../../src/core/process.ts";
import { alive, FAKE_AGENT, installFake, tmpdir } from "../helpers.ts";

const fast = { intMs: 300, termMs: 300, killMs: 500 };

function start(dir: string, script: Array<Record<string, unknown>>, maxLineBytes?: number) {
  const fake = installFake(dir, "agent", script);
  const proc = new AgentProcess({ cmd: [process.execPath, FAKE_AGENT], cwd: dir, env: fake.env, maxLineBytes });
  return { proc, fake };
}

describe("AgentProcess", () => {
  test("a 100 MB line with no newline at all keeps the parent's memory bounded", () => {
    const MB = 1024 * 1024;
    const child = Bun.spawnSync([process.execPath, join(import.meta.dir, "../support/line-memory.ts")]);
    const { frames, growthBytes } = JSON.parse(child.stdout.toString());
    expect(frames).toEqual([{ kind: "line", text: "first" }, { kind: "too-large", bytes: 100 * MB }]);
    // The oversized line is dropped as it streams: growth stays far below its 100 MB.
    expect(growthBytes).toBeLessThan(48 * MB);
  });

  test("cancel stops the whole process group, even a leader that ignores SIGINT", async () => {
    await using tmp = tmpdir();
    const { proc, fake } = start(tmp.path, [{ ignore: "SIGINT" }, { spawn: ["sleep", "1000"] }, { raw: "ready\n" }, { hang: true }]);
    const lines = proc.lines();
    expect((await lines.next()).value).toEqual({ kind: "line", text: "ready" });
    expect(groupMembers(proc.pid).length).toBeGreaterThanOrEqual(2);
    await proc.cancel(fast);
    expect(groupMembers(proc.pid)).toEqual([]);
    expect(alive(fake.pids()[0]!)).toBe(false);
    expect((await proc.exited).signal).toBe("SIGTERM");
  });

  test("a leader that exits normally takes the grandchildren it left behind with it", async () => {
    await using tmp = tmpdir();
    const { proc, fake } = start(tmp.path, [{ spawn: ["sleep", "1000"] }, { raw: "bye\n" }]);
    for await (const _ of proc.lines());
    expect(await proc.exited).toEqual({ exitCode: 0, signal: null });
    expect(alive(fake.pids()[0]!)).toBe(false);
  });

  test("stderr is a bounded tail", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "agent", [{ stderr: "x".repeat(200_000) }, { stderr: "the end\n" }]);
    const proc = new AgentProcess({ cmd: [process.execPath, FAKE_AGENT], cwd: tmp.path, env: fake.env, stderrTailBytes: 1024 });
    for await (const _ of proc.lines());
    await proc.exited;
    const tail = await proc.stderrTail();
    expect(tail.length).toBe(1024);
    expect(tail.endsWith("the end\n")).toBe(true);
  });

  test("spawn failures are OdErrors, not stack traces", () => {
    expect(() => new AgentProcess({ cmd: ["/nonexistent/agent"], cwd: "/", env: {} })).toThrow(expect.objectContaining({ code: "AGENT_NOT_FOUND" }));
    expect(() => new AgentProcess({ cmd: ["/etc/hostname"], cwd: "/", env: {} })).toThrow(expect.objectContaining({ code: "SPAWN_FAILED" }));
  });
});
