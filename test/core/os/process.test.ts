import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { AgentProcess } from "../../../src/core/os/process.ts";
import { groupMembers } from "../../../src/core/os/process-group.ts";
import { framesPerTurn, QUIET_AFTER_EXIT_MS } from "../../../src/core/os/quiet.ts";
import { alive, FAKE_AGENT, installFake, tmpdir } from "../../helpers.ts";

const fast = { intMs: 300, termMs: 300, killMs: 500 };

function start(dir: string, script: Array<Record<string, unknown>>, maxLineBytes?: number) {
  const fake = installFake(dir, "agent", script);
  const proc = new AgentProcess({ cmd: [process.execPath, FAKE_AGENT], cwd: dir, env: fake.env, maxLineBytes });
  return { proc, fake };
}

describe("AgentProcess", () => {
  test("a 100 MB line with no newline at all keeps the parent's memory bounded", () => {
    const MB = 1024 * 1024;
    const child = Bun.spawnSync([process.execPath, join(import.meta.dir, "../../support/line-memory.ts")]);
    const { frames, growthBytes } = JSON.parse(child.stdout.toString());
    expect(frames).toEqual([
      { kind: "line", text: "first" },
      { kind: "too-large", bytes: 100 * MB },
    ]);
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

  test("spawn failures are OdErrors, not stack traces, and leave no pipe open", () => {
    const before = pipesOpen();
    expect(() => new AgentProcess({ cmd: ["/nonexistent/agent"], cwd: "/", env: {} })).toThrow(
      expect.objectContaining({ code: "AGENT_NOT_FOUND" }),
    );
    expect(() => new AgentProcess({ cmd: ["/etc/hostname"], cwd: "/", env: {} })).toThrow(
      expect.objectContaining({ code: "SPAWN_FAILED" }),
    );
    // Only new pipes count: one an earlier test's reader held may close meanwhile (Bun closes it off this thread).
    expect(pipesOpen().filter((pipe) => !before.includes(pipe))).toEqual([]);
  });
});

test("output that is always ready is read one chunk per turn of the event loop: timers and writes still get theirs", async () => {
  const line = new TextEncoder().encode("{}\n");
  let i = 0;
  const flood = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i++ < 50) controller.enqueue(line);
      else controller.close();
    },
  });
  let turns = 0;
  let reading = true;
  const turn = () => {
    turns++;
    if (reading) setImmediate(turn);
  };
  setImmediate(turn);
  let chunks = 0;
  for await (const frames of framesPerTurn(flood, new Promise(() => {}))) {
    expect(frames).toEqual([{ kind: "line", text: "{}" }]);
    chunks++;
  }
  reading = false;
  expect(chunks).toBe(50);
  expect(turns).toBeGreaterThanOrEqual(49);
});

describe.skipIf(process.platform !== "linux")("AgentProcess stdout on Linux", () => {
  const agent = (script: string) => new AgentProcess({ cmd: [process.execPath, "-e", script], cwd: "/", env: { PATH: process.env.PATH } });

  test("a process that left the group and holds stdout does not hold the lines open: they end once the group is gone", async () => {
    await using tmp = tmpdir();
    const pidFile = join(tmp.path, "daemon.pid");
    const proc = new AgentProcess({
      cmd: ["sh", "-c", `setsid sleep 30 & echo $! > ${pidFile}; echo hello; printf 'no newline'`],
      cwd: "/",
      env: { PATH: process.env.PATH },
    });
    try {
      const frames = [];
      for await (const frame of proc.lines()) frames.push(frame);
      expect(frames).toEqual([
        { kind: "line", text: "hello" },
        { kind: "line", text: "no newline" },
      ]);
    } finally {
      process.kill(Number(readFileSync(pidFile, "utf8")));
    }
  });

  test("a consumer that asks late, long after the agent exited, still gets every line", async () => {
    const proc = new AgentProcess({ cmd: ["sh", "-c", "echo one; echo two; echo three"], cwd: "/", env: { PATH: process.env.PATH } });
    const lines = proc.lines();
    expect((await lines.next()).value).toEqual({ kind: "line", text: "one" });
    await proc.exited;
    await Bun.sleep(QUIET_AFTER_EXIT_MS * 1.5);
    const rest = [];
    for await (const frame of lines) rest.push(frame);
    expect(rest).toEqual([
      { kind: "line", text: "two" },
      { kind: "line", text: "three" },
    ]);
  });

  test("is a real pipe, as a shell would give it (a socket cannot be opened as /dev/stdout)", async () => {
    const proc = agent(`console.log(require("fs").readlinkSync("/proc/self/fd/1"))`);
    const [line] = await Array.fromAsync(proc.lines());
    expect(line).toMatchObject({ kind: "line", text: expect.stringMatching(/^pipe:/) });
  });

  test("holds a few KiB: an agent faster than od waits for it instead of queueing 200 KiB of events", async () => {
    const proc = agent(
      `const { writeSync } = require("fs"); for (let i = 0; i < 64; i++) writeSync(1, "x".repeat(1023) + "\\n"); writeSync(2, "all written\\n");`,
    );
    await Bun.sleep(300); // od reads nothing yet: 64 KiB cannot all be written
    expect(await proc.stderrTail()).toBe("");
    expect((await Array.fromAsync(proc.lines())).length).toBe(64);
    await proc.exited;
    expect(await proc.stderrTail()).toBe("all written\n");
  });

  // Bun reads from a duplicate of od's end and closes it itself a few turns of the loop after the
  // stream ends (up to ~6 ms seen on a loaded machine), so the check waits for it, boundedly.
  test("od's end is closed once the lines are read", async () => {
    const proc = agent(`console.log(require("fs").readlinkSync("/proc/self/fd/1"))`);
    const [line] = await Array.fromAsync(proc.lines());
    await proc.exited;
    const ours = line?.kind === "line" ? line.text : "no line";
    expect(ours).toStartWith("pipe:");
    for (const deadline = Date.now() + 5000; pipesOpen().includes(ours) && Date.now() < deadline; ) await Bun.sleep(5);
    expect(pipesOpen()).not.toContain(ours);
  });
});

/** The pipes this process holds open, as "pipe:[inode]" (od's ends of agents' pipes among them). */
function pipesOpen(): string[] {
  const pipes: string[] = [];
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      const link = readlinkSync(`/proc/self/fd/${fd}`);
      if (link.startsWith("pipe:")) pipes.push(link);
    } catch {}
  }
  return pipes.sort();
}
