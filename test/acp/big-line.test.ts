/**
 * `od acp` bounds what it reads: a 48 MiB message (over the ACP SDK's own 32 MiB, which used to end
 * the connection, od exiting 0 with a prompt in flight) is answered with an error naming od's
 * limit, skipped without spinning, and the session goes on: the prompt in flight still ends with
 * its stopReason, and the next one is served.
 */
import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RequestError } from "@agentclientprotocol/sdk";
import { DIST_OD, FIXTURES, installFake, tmpdir } from "../helpers.ts";
import { cpuSeconds } from "../mcp/support.ts";
import { acpClient } from "./client.ts";

test("od acp: a 48 MiB session/prompt beside one in flight gets an error naming the limit; the session goes on", async () => {
  await using tmp = tmpdir();
  // The first prompt streams a little and hangs; later ones answer. Probes (no stdin) end at once.
  const plain = join(FIXTURES, "claude/plain.jsonl");
  const head = join(tmp.path, "head.jsonl");
  writeFileSync(head, `${readFileSync(plain, "utf8").split("\n").slice(0, 5).join("\n")}\n`);
  const first = { firstTime: join(tmp.path, "first-turn"), then: [{ replay: head }, { hang: true }], else: [{ replay: plain }] };
  const fake = installFake(tmp.path, "claude", [{ read: "all" }, { ifStdin: " ", then: [first] }]);
  const c = acpClient([DIST_OD, "acp", "--agent", "claude"], fake.env);
  await c.initialize();
  const { sessionId } = await c.newSession(tmp.path);
  const inFlight = c.prompt(sessionId, "go on forever");
  await c.until((n) => n.update.sessionUpdate === "agent_message_chunk");
  const pid = c.child.pid!;
  const cpu = cpuSeconds(pid);
  const started = performance.now();
  const big = (await c.prompt(sessionId, `big ${"x".repeat(48 * 1024 * 1024)}`).catch((e) => e)) as RequestError;
  const elapsed = performance.now() - started;
  const used = cpuSeconds(pid) - cpu;
  console.log(`od acp, 48 MiB line: answered in ${elapsed.toFixed(0)} ms, od used ${used.toFixed(2)} s of CPU`);
  expect(big.code).toBe(-32600);
  expect(big.message).toContain("over the 8 MiB limit");
  expect(used).toBeLessThan(3);
  expect(c.stderr()).toContain("over the 8 MiB limit");
  // The prompt in flight is still served: cancelled, it ends with its stopReason; then another prompt runs.
  await c.agent.notify("session/cancel", { sessionId });
  expect((await inFlight).stopReason).toBe("cancelled");
  expect((await c.prompt(sessionId, "once more")).stopReason).toBe("end_turn");
  expect(await c.close()).toBe(0);
}, 60_000);
