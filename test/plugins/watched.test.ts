/** The watched driver alone: a plugin's line parser in its own thread, answered asynchronously, under a watchdog. */
import { describe, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadRegistry } from "../../src/builtins.ts";
import { watchedDriver } from "../../src/core/agents/watched.ts";
import { interpret } from "../../src/core/protocols/interpret.ts";
import { tmpdir } from "../helpers.ts";
import { pluginSource } from "./support.ts";

/** The plugin file's adapter (as the registry would hold it) and a watched driver over it. */
async function watched(dir: string, source: string, watchdogMs = 300, openMs?: number) {
  writeFileSync(join(dir, "my-agent.ts"), source);
  const { adapter, source: path } = (await loadRegistry([dir])).get("my-agent")!;
  const driver = watchedDriver(adapter, path, { watchdogMs, openMs });
  const { state } = driver.start({ agent: { name: adapter.name }, prompt: "hi", cwd: dir, mode: "edit" });
  return { driver, state, line: async (text: string) => await interpret(driver, state, text) };
}

const text = (v: string) => JSON.stringify({ t: "text", v });

describe("watchedDriver", () => {
  test("lines sent while the plugin is still loading are answered in order, with the plugin's state kept between them", async () => {
    await using tmp = tmpdir();
    const source = pluginSource("my-agent", { parse: `s.n++; return [{ type: "text.delta", id: "t", text: s.n + ":" + r.v }];` });
    const { line, driver, state } = await watched(tmp.path, source);
    const steps = await Promise.all([line(text("a")), line(text("b")), line(text("c"))]);
    expect(steps.flatMap((s) => s.events)).toEqual(["1:a", "2:b", "3:c"].map((t) => ({ type: "text.delta", id: "t", text: t })));
    expect(await driver.finish?.(state)).toEqual([]);
  });

  test("a parse that never returns: PLUGIN_ERROR after the watchdog, then every later line is kept raw at once", async () => {
    await using tmp = tmpdir();
    const { line } = await watched(tmp.path, pluginSource("my-agent", { parse: `if (r.v === "spin") while (true) {} return [];` }));
    expect((await line(text("warm"))).events).toEqual([]);
    const t0 = performance.now();
    const [error] = (await line(text("spin"))).events;
    expect(performance.now() - t0).toBeLessThan(1500);
    expect(error).toMatchObject({ type: "error", code: "PLUGIN_ERROR", retryable: false });
    expect((error as { message: string }).message).toContain("parse() did not return within 300 ms");
    const t1 = performance.now();
    expect((await line(text("after"))).events).toEqual([{ type: "raw", stream: "stdout", line: text("after") }]);
    expect(performance.now() - t1).toBeLessThan(50);
  });

  test("process.exit in parse ends the run with PLUGIN_ERROR at once, not after the watchdog", async () => {
    await using tmp = tmpdir();
    const { line } = await watched(tmp.path, pluginSource("my-agent", { parse: "process.exit(3);" }), 5000);
    const t0 = performance.now();
    const [error] = (await line(text("x"))).events;
    expect(performance.now() - t0).toBeLessThan(2000);
    expect((error as { code: string; message: string }).code).toBe("PLUGIN_ERROR");
    expect((error as { message: string }).message).toContain("called process.exit(3) while parsing");
  });

  test("a plugin that can no longer be loaded in its thread (its file is gone) ends the run with PLUGIN_ERROR saying so", async () => {
    await using tmp = tmpdir();
    const { driver } = await watched(tmp.path, pluginSource("my-agent"));
    rmSync(join(tmp.path, "my-agent.ts"));
    const { state } = driver.start({ agent: { name: "my-agent" }, prompt: "hi", cwd: tmp.path, mode: "edit" });
    const [error] = (await interpret(driver, state, text("x"))).events;
    expect(error).toMatchObject({ type: "error", code: "PLUGIN_ERROR" });
    expect((error as { message: string }).message).toContain("could not be loaded in its own thread");
  });

  test("a createState that never returns ends the run with PLUGIN_ERROR when the open budget, counted from the start, is spent", async () => {
    await using tmp = tmpdir();
    const source = pluginSource("my-agent").replace("createState: () => ({ n: 0 })", "createState: () => { while (true) {} }");
    const { line } = await watched(tmp.path, source, 300, 800);
    const t0 = performance.now();
    const [error] = (await line(text("x"))).events;
    expect(performance.now() - t0).toBeLessThan(1500);
    expect((error as { message: string }).message).toContain("did not load and make its state in a thread of its own within 800 ms");
  });
});

describe("watchedDriver never holds od's thread", () => {
  /** The longest gap between ticks of a 20 ms timer while `f` runs: how long od's thread was held. */
  async function longestStall(f: () => Promise<unknown>): Promise<number> {
    let last = performance.now();
    let longest = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 20);
    try {
      await f();
    } finally {
      clearInterval(ticker);
    }
    return Math.max(longest, performance.now() - last);
  }

  test("while the plugin loads in its thread (1.5 s at top level) and while its parse spins, od's timers keep firing", async () => {
    await using tmp = tmpdir();
    const top = `if (!Bun.isMainThread) { const t = Date.now(); while (Date.now() - t < 1500) {} }`;
    const source = pluginSource("my-agent", {
      top,
      parse: `if (r.v === "spin") while (true) {} return [{ type: "text.delta", id: "t", text: r.v }];`,
    });
    const { line } = await watched(tmp.path, source, 1000);
    let first: unknown[] = [];
    const loading = await longestStall(async () => (first = (await line(text("a"))).events));
    expect(first).toEqual([{ type: "text.delta", id: "t", text: "a" }]);
    expect(loading).toBeLessThan(200);
    let error: unknown;
    const spinning = await longestStall(async () => ([error] = (await line(text("spin"))).events));
    expect(error).toMatchObject({ type: "error", code: "PLUGIN_ERROR" });
    expect(spinning).toBeLessThan(200);
  }, 15_000);

  test("close() while a parse spins ends its thread: the waiting line ends at once, and later ones are raw", async () => {
    await using tmp = tmpdir();
    const { line, driver, state } = await watched(tmp.path, pluginSource("my-agent", { parse: "while (true) {}" }), 5000);
    const pending = line(text("spin"));
    await Bun.sleep(300);
    const t0 = performance.now();
    driver.close?.(state);
    const [error] = (await pending).events;
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(error).toMatchObject({ type: "error", code: "PLUGIN_ERROR" });
    expect((await line(text("after"))).events).toEqual([{ type: "raw", stream: "stdout", line: text("after") }]);
    expect(await driver.finish?.(state)).toEqual([]);
  });
});
