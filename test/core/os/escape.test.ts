/** A process that left the agent's group (setsid) and still holds its pipes holds nothing of od's once the agent's group is gone. */
import { describe, expect, test } from "bun:test";
import { readdirSync, readlinkSync } from "node:fs";
import { AgentProcess } from "../../../src/core/os/process.ts";
import { alive, FAKE_AGENT, installFake, tmpdir } from "../../helpers.ts";

/** od's pipes and sockets, as "pipe:[inode]" / "socket:[inode]". */
function channels(): string[] {
  const found: string[] = [];
  for (const fd of readdirSync("/proc/self/fd"))
    try {
      const link = readlinkSync(`/proc/self/fd/${fd}`);
      if (link.startsWith("pipe:") || link.startsWith("socket:")) found.push(link);
    } catch {}
  return found;
}

describe.skipIf(process.platform !== "linux")("an escaped process holding the agent's output", () => {
  test("stdout and stderr both end within about a second of the group, and od's ends of them are closed", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "agent", [{ setsid: ["sleep", "1000"], hold: "both" }, { stderr: "bye\n" }, { raw: "done\n" }]);
    const before = channels();
    const proc = new AgentProcess({ cmd: [process.execPath, FAKE_AGENT], cwd: tmp.path, env: fake.env });
    const escaped = () => fake.pids()[0]!;
    try {
      const lines = await Array.fromAsync(proc.lines());
      expect(lines).toEqual([{ kind: "line", text: "done" }]);
      await proc.exited;
      expect(await proc.stderrTail()).toBe("bye\n");
      expect(alive(escaped())).toBe(true); // still there: only od let go of it
      // Both readers end on their own (Bun closes a stream's descriptor a few turns after it ends): bounded wait.
      const deadline = Date.now() + 2000;
      while (channels().some((c) => !before.includes(c)) && Date.now() < deadline) await Bun.sleep(10);
      expect(channels().filter((c) => !before.includes(c))).toEqual([]);
    } finally {
      for (const pid of fake.pids()) process.kill(pid, "SIGKILL");
    }
  });
});
