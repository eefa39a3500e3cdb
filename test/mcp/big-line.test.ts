/**
 * `od mcp` bounds what it reads: a line over the limit is answered with a JSON-RPC error naming the
 * limit (the request's own id when the line names it, else null) and skipped without being held,
 * at once and with little CPU, and the server goes on serving.
 */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { DIST_OD, installFake, tmpdir } from "../helpers.ts";
import { connectStdio, cpuSeconds, peakMiB } from "./support.ts";

const MiB = 1024 * 1024;

/** A process speaking JSON lines on stdio, raw: what it writes, read back one message at a time. */
function rawStdio(argv: string[], env: Record<string, string>, cwd: string) {
  const proc = Bun.spawn(argv, { env, cwd, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  return {
    proc,
    async send(message: unknown) {
      proc.stdin.write(`${JSON.stringify(message)}\n`);
      await proc.stdin.flush();
    },
    /** Writes one line of `bytes` bytes: `head`, filler, `tail`, in 1 MiB pieces (never one big string). */
    async sendBig(head: string, bytes: number, tail: string) {
      const piece = "x".repeat(MiB);
      proc.stdin.write(head);
      for (let left = bytes - head.length - tail.length; left > 0; left -= MiB) {
        proc.stdin.write(left >= MiB ? piece : piece.slice(0, left));
        await proc.stdin.flush();
      }
      proc.stdin.write(`${tail}\n`);
      await proc.stdin.flush();
    },
    /** The next message it writes (bounded: 15 s). */
    async next(): Promise<Record<string, unknown>> {
      const end = Date.now() + 15_000;
      while (!buffered.includes("\n")) {
        const read = await Promise.race([reader.read(), Bun.sleep(Math.max(0, end - Date.now())).then(() => "late" as const)]);
        if (read === "late") throw new Error("no answer within 15 s");
        if (read.done) throw new Error("stdout closed");
        buffered += decoder.decode(read.value, { stream: true });
      }
      const i = buffered.indexOf("\n");
      const line = buffered.slice(0, i);
      buffered = buffered.slice(i + 1);
      return JSON.parse(line);
    },
  };
}

describe("od mcp (stdio, compiled) with a line over the limit", () => {
  test("a 16 MiB tools/call from the SDK's client: its call answered at once with an error naming the limit; the next request served", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "claude", [{ exit: 0 }]);
    await using od = await connectStdio([], fake.env, tmp.path);
    const pid = od.transport.pid!;
    const cpu = cpuSeconds(pid);
    const started = performance.now();
    const prompt = "x".repeat(16 * MiB);
    const err = await od.client
      .callTool({ name: "run_agent", arguments: { agent: "claude", prompt } }, undefined, { timeout: 15_000 })
      .catch((e: unknown) => e);
    const elapsed = performance.now() - started;
    const used = cpuSeconds(pid) - cpu;
    console.log(`od mcp, 16 MiB line: answered in ${elapsed.toFixed(0)} ms, od used ${used.toFixed(2)} s of CPU`);
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).code).toBe(-32600);
    expect((err as McpError).message).toContain("over the 8 MiB limit");
    expect(elapsed).toBeLessThan(15_000);
    expect(used).toBeLessThan(3);
    expect((await od.client.listTools()).tools.map((t) => t.name).sort()).toEqual(["cancel_run", "list_agents", "run_agent"]);
    expect(existsSync(fake.env.FAKE_RECORD!)).toBe(false); // nothing ran
  }, 60_000);

  test("a 128 MiB line naming no id: an error with id null; skipped without being held; then tools/list", async () => {
    await using tmp = tmpdir();
    const od = rawStdio([DIST_OD, "mcp"], { PATH: "/usr/bin:/bin", HOME: tmp.path, OD_HOME: `${tmp.path}/.od`, NO_COLOR: "1" }, tmp.path);
    try {
      await od.send({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      });
      expect(await od.next()).toMatchObject({ id: 1, result: { serverInfo: { name: "od" } } });
      await od.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      const cpu = cpuSeconds(od.proc.pid);
      const before = peakMiB(od.proc.pid);
      const started = performance.now();
      await od.sendBig('{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"', 128 * MiB, '"}}');
      const answer = await od.next();
      const elapsed = performance.now() - started;
      const used = cpuSeconds(od.proc.pid) - cpu;
      const grew = peakMiB(od.proc.pid) - before;
      console.log(
        `od mcp, 128 MiB line: answered ${elapsed.toFixed(0)} ms after it began, ${used.toFixed(2)} s CPU, peak memory +${grew.toFixed(0)} MiB`,
      );
      expect(answer).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
      expect((answer.error as { message: string }).message).toContain("over the 8 MiB limit");
      expect(used).toBeLessThan(3);
      expect(grew).toBeLessThan(64); // the line is not held (what grows is the limit's worth and garbage not yet collected)
      await od.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
      expect(await od.next()).toMatchObject({ id: 2, result: { tools: expect.any(Array) } });
    } finally {
      od.proc.stdin.end();
      od.proc.kill();
      await od.proc.exited;
    }
  }, 60_000);
});
