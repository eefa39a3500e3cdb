/** Cancels of agents whose children escape the process group (setsid): the run's marker still finds them all. */
import { describe, expect, test } from "bun:test";
import { createRegistry } from "../../src/core/agents/registry.ts";
import { alive, finished, installFake, tmpdir } from "../helpers.ts";
import { fakeAdapter } from "../support/fake-adapter.ts";
import { runAgent } from "../support/run.ts";
import { killAll, processesWith } from "./support.ts";

const registry = createRegistry([fakeAdapter]);
const fast = { intMs: 300, termMs: 300, killMs: 500 };
/** 20 here; `CANCELS=100` to measure by hand. */
const CANCELS = Number(process.env.CANCELS ?? 20);
const AT_ONCE = 4;

describe.skipIf(process.platform !== "linux")("cancel", () => {
  test(`${CANCELS} cancels of agents that escape with setsid leave no process`, async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-agent", [
      { setsid: ["sleep", "1000"] },
      { setsid: ["sh", "-c", "sleep 1000 & sleep 1000"] },
      { stdout: { t: "text", v: "working" } },
      { hang: true },
    ]);
    const one = async () => {
      const controller = new AbortController();
      const events = [];
      for await (const e of runAgent(
        { agent: "fake", prompt: "x", cwd: tmp.path },
        { registry, env: fake.env, signal: controller.signal, ladder: fast },
      )) {
        events.push(e);
        if (e.type === "text.delta") controller.abort();
      }
      return finished(events).status;
    };
    const started = performance.now();
    try {
      const statuses: string[] = [];
      for (let i = 0; i < CANCELS; i += AT_ONCE)
        statuses.push(...(await Promise.all(Array.from({ length: Math.min(AT_ONCE, CANCELS - i) }, one))));
      expect(statuses).toEqual(Array(CANCELS).fill("cancelled"));
      expect(fake.pids().length).toBe(CANCELS * 2);
      expect(fake.pids().filter(alive)).toEqual([]);
      expect(processesWith(`FAKE_SCRIPT=${fake.env.FAKE_SCRIPT}`)).toEqual([]);
      if (process.env.CANCELS) console.log(`${CANCELS} cancels in ${Math.round(performance.now() - started)} ms`);
    } finally {
      killAll(processesWith(`FAKE_SCRIPT=${fake.env.FAKE_SCRIPT}`));
    }
  }, 20_000);
});
