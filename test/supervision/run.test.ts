/** `od run` (compiled) ended by the world: a hangup, SIGTERM, SIGKILL. No process of the run may outlive it. */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { OdEvent } from "../../src/core/contract/events.ts";
import { DIST_OD, FIXTURES, tmpdir } from "../helpers.ts";
import { fakeFor, gone, killAll, processesWith, readUntil, until } from "./support.ts";

/** Each test takes 1-3 s; the bound only keeps a regression from hanging the suite. */
setDefaultTimeout(9000);

/** An agent that starts a child in its group and one that leaves it (setsid), answers, and never ends. */
const stubborn = [
  { spawn: ["sleep", "1000"] },
  { setsid: ["sleep", "1000"] },
  { replay: join(FIXTURES, "claude/plain.jsonl") },
  { hang: true },
];

/** `od run --json` on fake agents running `stubborn`, once each has answered (one agent) and all their processes are up. */
async function started(dir: string, agents = "claude") {
  const fake = fakeFor(dir, "claude", stubborn);
  fakeFor(dir, "pi", stubborn);
  const p = Bun.spawn([DIST_OD, "run", "--agent", agents, "--json", "--cwd", dir, "hi"], {
    env: fake.odEnv,
    stdout: "pipe",
    stderr: "pipe",
  });
  const several = agents.includes(",");
  const { text, reader } = await readUntil(p.stdout, (t) => several || t.includes("text.delta"));
  const procs = agents.split(",").length * 3;
  try {
    expect(
      await until(
        () => left(dir).length,
        (n) => n >= procs,
        5000,
      ),
    ).toBe(procs);
  } catch (err) {
    // Not all up in time: od and what did start go now, or od would wait on its stubborn agents for ever.
    p.kill("SIGKILL");
    killAll(left(dir));
    throw err;
  }
  const rest = async () => {
    let all = text;
    for (;;) {
      const next = await reader.read();
      if (next.done) return all;
      all += new TextDecoder().decode(next.value);
    }
  };
  return { p, fake, rest };
}

const left = (dir: string) => [
  ...processesWith(`FAKE_SCRIPT=${join(dir, "claude.script.json")}`),
  ...processesWith(`FAKE_SCRIPT=${join(dir, "pi.script.json")}`),
];

describe.skipIf(process.platform !== "linux")("od run, ended from outside", () => {
  for (const [signal, code] of [
    ["SIGHUP", 129],
    ["SIGTERM", 143],
  ] as const)
    test(`${signal} is a cancel like Ctrl-C: run.finished cancelled, exit ${code}, no process left`, async () => {
      await using tmp = tmpdir();
      const { p, fake, rest } = await started(tmp.path);
      try {
        p.kill(signal);
        const out = await rest();
        expect(await p.exited).toBe(code);
        const events = out
          .trim()
          .split("\n")
          .map((l) => OdEvent.parse(JSON.parse(l)));
        expect(events.at(-1)).toMatchObject({ type: "run.finished", status: "cancelled" });
        expect(await gone(() => left(tmp.path))).toEqual([]);
        // Nothing of od stays either (its sentinel exits with it).
        expect(await gone(() => processesWith(fake.home))).toEqual([]);
      } finally {
        killAll(left(tmp.path));
      }
    });

  test("under nohup a hangup stays ignored, as the user asked: only the Ctrl-C after it cancels (130)", async () => {
    await using tmp = tmpdir();
    const fake = fakeFor(tmp.path, "claude", stubborn);
    const p = Bun.spawn(["nohup", DIST_OD, "run", "--agent", "claude", "--json", "--cwd", tmp.path, "hi"], {
      env: fake.odEnv,
      stdout: "pipe",
      stderr: "ignore",
    });
    try {
      const { reader } = await readUntil(p.stdout, (t) => t.includes("text.delta"));
      reader.releaseLock();
      p.kill("SIGHUP");
      p.kill("SIGINT");
      expect(await p.exited).toBe(130);
      expect(await gone(() => left(tmp.path))).toEqual([]);
    } finally {
      p.kill("SIGKILL");
      killAll(left(tmp.path));
    }
  });

  test("SIGHUP with several agents: each is cancelled, exit 129, no process left", async () => {
    await using tmp = tmpdir();
    const { p } = await started(tmp.path, "claude,pi");
    try {
      p.kill("SIGHUP");
      expect(await p.exited).toBe(129);
      expect(await gone(() => left(tmp.path))).toEqual([]);
    } finally {
      killAll(left(tmp.path));
    }
  });

  test("SIGKILL: nothing of od runs any more, and still no process of the run is left", async () => {
    await using tmp = tmpdir();
    const { p, fake } = await started(tmp.path);
    try {
      p.kill("SIGKILL");
      await p.exited;
      expect(await gone(() => left(tmp.path), 5000)).toEqual([]);
      expect(await gone(() => processesWith(fake.home))).toEqual([]);
    } finally {
      killAll(left(tmp.path));
    }
  });

  test("od --version starts no sentinel: only a spawned agent does", async () => {
    await using tmp = tmpdir();
    const fake = fakeFor(tmp.path, "claude", stubborn);
    const p = Bun.spawn([DIST_OD, "--version"], { env: fake.odEnv, stdout: "pipe" });
    const { text } = await readUntil(p.stdout, (t) => t.includes("\n"));
    expect(text).toMatch(/^\d+\.\d+\.\d+/);
    expect(await p.exited).toBe(0);
    expect(processesWith(fake.home)).toEqual([]);
  });

  test("an escaped process that holds stderr does not hold od: it exits within 2 s of run.finished", async () => {
    await using tmp = tmpdir();
    const fake = fakeFor(tmp.path, "claude", [
      { read: "all" },
      { setsid: ["sleep", "1000"], hold: "stderr" },
      { replay: join(FIXTURES, "claude/plain.jsonl") },
    ]);
    const p = Bun.spawn([DIST_OD, "run", "--agent", "claude", "--json", "--cwd", tmp.path, "hi"], {
      env: fake.odEnv,
      stdout: "pipe",
      stderr: "ignore",
    });
    try {
      await readUntil(p.stdout, (t) => t.includes('"run.finished"'));
      const finishedAt = Date.now();
      const exited = await Promise.race([p.exited, Bun.sleep(4000).then(() => "still running")]);
      expect({ exited, withinMs: Date.now() - finishedAt < 2000 }).toEqual({ exited: 0, withinMs: true });
      expect(await gone(() => left(tmp.path), 2000)).toEqual([]); // and it went with the run
    } finally {
      p.kill("SIGKILL");
      killAll(left(tmp.path));
    }
  });
});
