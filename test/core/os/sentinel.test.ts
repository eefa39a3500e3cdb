/** The sentinel, from source (as the library runs it): what ends an od's agents when od itself is killed. */
import { describe, expect, test } from "bun:test";
import { readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { alive, ROOT } from "../../helpers.ts";

const SENTINEL = JSON.stringify(join(ROOT, "src/core/os/sentinel.ts"));
const REAP = JSON.stringify(join(ROOT, "src/core/os/reap.ts"));

async function firstLine(stream: ReadableStream<Uint8Array>) {
  const reader = stream.getReader();
  let text = "";
  while (!text.includes("\n")) text += new TextDecoder().decode((await reader.read()).value);
  reader.releaseLock();
  return JSON.parse(text.split("\n")[0]!) as { sentinel: number; again: boolean; agent: number };
}

const until = async (check: () => boolean, ms: number) => {
  for (const deadline = Date.now() + ms; !check() && Date.now() < deadline; ) await Bun.sleep(20);
  return check();
};

describe.skipIf(process.platform !== "linux")("the sentinel", () => {
  test("od killed with SIGKILL: the sentinel ends every process with od's mark, one that left every group too, then exits", async () => {
    const od = Bun.spawn([process.execPath, "-e", script("setInterval(() => {}, 1000);")], { stdout: "pipe", stderr: "inherit" });
    const { sentinel, again, agent } = await firstLine(od.stdout);
    try {
      expect(again).toBe(true); // one sentinel per od
      expect([alive(sentinel), alive(agent)]).toEqual([true, true]);
      od.kill("SIGKILL");
      await od.exited;
      expect(await until(() => !alive(agent), 3000)).toBe(true);
      expect(await until(() => !alive(sentinel), 1000)).toBe(true);
    } finally {
      for (const pid of [agent, sentinel]) if (alive(pid)) process.kill(pid, "SIGKILL");
    }
  });

  test("the sentinel is the small C helper, not a second od, when od has its helper", async () => {
    // od stays until the test closes its stdin: a sentinel outlives od only by its last reap, so read it while od lives
    const od = Bun.spawn([process.execPath, "-e", script('process.stdin.on("data", () => {}).on("end", () => process.exit(0));')], {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "inherit",
    });
    const { sentinel, agent } = await firstLine(od.stdout);
    try {
      const argv = readFileSync(`/proc/${sentinel}/cmdline`, "latin1").split("\0");
      expect(argv.slice(1, 3)).toEqual(["--reap", expect.stringMatching(/^OD_OWNER=\d+-[0-9a-f]{12}$/)]);
      expect(readlinkSync(`/proc/${sentinel}/exe`)).toMatch(/od-sandbox/);
      od.stdin.end();
      expect(await od.exited).toBe(0);
    } finally {
      for (const pid of [agent, sentinel]) if (alive(pid)) process.kill(pid, "SIGKILL");
    }
  });

  test("od's own sentinel mode (an od built without the helper) ends what carries the mark once its stdin closes", async () => {
    const owner = `${process.pid}-${"ab".repeat(6)}`;
    const reaper = Bun.spawn([process.execPath, join(ROOT, "src/main.ts"), "__reap", owner], {
      stdin: "pipe",
      stdout: "ignore",
      stderr: "inherit",
    });
    const agent = Bun.spawn(["sleep", "1000"], {
      env: { PATH: process.env.PATH, OD_OWNER: owner },
      stdio: ["ignore", "ignore", "ignore"],
      detached: true,
    });
    try {
      await Bun.sleep(300);
      expect(alive(agent.pid)).toBe(true);
      reaper.stdin.end();
      expect(await until(() => !alive(agent.pid), 3000)).toBe(true);
      expect(await reaper.exited).toBe(0);
    } finally {
      for (const pid of [agent.pid, reaper.pid]) if (alive(pid)) process.kill(pid, "SIGKILL");
    }
  });

  test("od exiting on its own does not wait for its sentinel, which exits too", async () => {
    const od = Bun.spawn([process.execPath, "-e", script("process.exitCode = 0;")], { stdout: "pipe", stderr: "inherit" });
    const { sentinel, agent } = await firstLine(od.stdout);
    try {
      expect(await Promise.race([od.exited, Bun.sleep(3000).then(() => "still running")])).toBe(0);
      expect(await until(() => !alive(sentinel), 3000)).toBe(true);
      expect(alive(agent)).toBe(false); // an agent od left behind goes with it
    } finally {
      for (const pid of [agent, sentinel]) if (alive(pid)) process.kill(pid, "SIGKILL");
    }
  });
});

/**
 * A stand-in for od: starts its sentinel (twice: one is kept), then an agent in a session of its own carrying od's mark,
 * noted as spawned the way process.ts notes every agent (a run whose reap has not yet seen it gone).
 */
function script(then: string): string {
  return `
    const { ensureSentinel, ownerMark, sentinelPid } = require(${SENTINEL});
    ensureSentinel();
    const first = sentinelPid();
    ensureSentinel();
    const agent = Bun.spawn(["sleep", "1000"], { env: { PATH: process.env.PATH, OD_OWNER: ownerMark() }, stdio: ["ignore", "ignore", "ignore"], detached: true });
    agent.unref();
    require(${REAP}).noteSpawned(require(${REAP}).runMark("a-run", ownerMark()));
    console.log(JSON.stringify({ sentinel: sentinelPid(), again: first === sentinelPid(), agent: agent.pid }));
    ${then}`;
}
