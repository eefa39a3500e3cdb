/**
 * A plugin's parser that never returns must not hang od: the run ends with PLUGIN_ERROR within its
 * timeout + 2 s, and `od serve` keeps answering meanwhile (serve.test.ts times that in process).
 * The CLI runs as a child process: the failure this guards against is a frozen process, which
 * would freeze the test runner in-process.
 */
import { describe, expect, test } from "bun:test";
import { installFake, tmpdir } from "../helpers.ts";
import { jsonLines, OD_SOURCE, pluginSource, writePlugins } from "./support.ts";

const spinning = () => pluginSource("spin-agent", { parse: "while (true) {}" });
const script = [{ read: "all" }, { stdout: { t: "text", v: "hello" } }, { sleep: 60_000 }];

describe("a plugin's parse() under a watchdog", () => {
  test("od run --timeout 3: an endless parse ends the run with PLUGIN_ERROR naming the plugin, within timeout + 2 s", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "spin-agent", script);
    writePlugins(tmp.path, { "spin.ts": spinning() });
    const { OD_HOME: _, ...env } = fake.env;
    const t0 = performance.now();
    const proc = Bun.spawn([...OD_SOURCE, "run", "--agent", "spin-agent", "--timeout", "3", "--json", "--cwd", tmp.path, "hi"], {
      env,
      stdout: "pipe",
      stderr: "pipe",
    });
    const killer = setTimeout(() => proc.kill("SIGKILL"), 12_000); // the frozen process this guards against
    const out = await new Response(proc.stdout).text();
    await proc.exited;
    clearTimeout(killer);
    const wall = performance.now() - t0;
    const events = jsonLines(out);
    const error = events.find((e) => e.type === "error");
    expect(error).toMatchObject({ code: "PLUGIN_ERROR", retryable: false });
    expect(String(error?.message)).toContain("spin-agent");
    expect(String(error?.message)).toContain("parse()");
    const finished = events.at(-1)!;
    expect(finished).toMatchObject({ type: "run.finished", status: "failed" });
    expect(Number(finished.durationMs)).toBeLessThan(3000 + 2000);
    expect(wall).toBeLessThan(3000 + 2000 + 3000); // + the CLI's own start and exit from source
    expect(proc.exitCode).toBe(1);
  }, 20_000);

  test("od serve: /api/health keeps answering while a plugin's parse spins, and the run fails with PLUGIN_ERROR", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "spin-agent", script);
    writePlugins(tmp.path, { "spin.ts": spinning() });
    const { OD_HOME: _, ...env } = fake.env;
    const proc = Bun.spawn([...OD_SOURCE, "serve", "--port", "0"], { env, stdout: "pipe", stderr: "ignore" });
    const killer = setTimeout(() => proc.kill("SIGKILL"), 25_000);
    try {
      const launch = await firstLine(proc.stdout);
      const url = new URL(launch.slice(launch.indexOf("http")));
      const headers = { "x-od-token": url.searchParams.get("token")!, "content-type": "application/json" };
      const api = (path: string, init: RequestInit = {}) =>
        fetch(new URL(`/api${path}`, url), { ...init, headers, signal: AbortSignal.timeout(4000) });
      const body = JSON.stringify({ agent: "spin-agent", prompt: "hi", cwd: tmp.path, timeoutMs: 20_000 });
      const { runId } = (await (await api("/runs", { method: "POST", body })).json()) as { runId: string };
      expect(runId).toBeString();
      // While the run is live, every health check answers at once: the server's thread never waits for the stuck parse.
      for (let i = 0; i < 6; i++) {
        const t0 = performance.now();
        expect(await (await api("/health")).json()).toEqual({ ok: true });
        expect(performance.now() - t0).toBeLessThan(1000);
        await Bun.sleep(300);
      }
      const text = await (await fetch(new URL(`/api/runs/${runId}/events`, url), { headers, signal: AbortSignal.timeout(8000) })).text();
      const events = text
        .split("\n")
        .filter((l) => l.startsWith("data:"))
        .map((l) => JSON.parse(l.slice(5)));
      expect(events.find((e) => e.type === "error")).toMatchObject({ code: "PLUGIN_ERROR" });
      expect(events.at(-1)).toMatchObject({ type: "run.finished", status: "failed" });
    } finally {
      clearTimeout(killer);
      proc.kill("SIGTERM");
      // A frozen server cannot run its SIGTERM handler.
      if (!(await Promise.race([proc.exited.then(() => true), Bun.sleep(3000).then(() => false)]))) proc.kill("SIGKILL");
      await proc.exited;
    }
  }, 30_000);
});

async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  reader.releaseLock();
  return text.split("\n")[0]!;
}
