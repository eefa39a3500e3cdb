/**
 * A run_agent that waits for a slot is checked against the roots again when its agent starts: a cwd
 * swapped meanwhile for a link out of the roots is refused then, over stdio and at /mcp alike.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Slots } from "../../src/core/os/slots.ts";
import { Runs } from "../../src/core/runs/service.ts";
import { RunLog } from "../../src/core/store/run-log.ts";
import { createApp } from "../../src/server/app.ts";
import { installFake, tmpdir } from "../helpers.ts";
import { HOST, registry, TOKEN } from "../server/support.ts";
import { call, connectStdio, outcomeOf, runIdFrom } from "./support.ts";

/** A root with a folder `sub` in it, and a folder outside it. */
function layout(dir: string) {
  const root = join(dir, "root");
  const outside = join(dir, "outside");
  mkdirSync(join(root, "sub"), { recursive: true });
  mkdirSync(outside);
  return { root, outside, sub: join(root, "sub") };
}

/** Waits (bounded) for what no event tells: a file the fake writes as it starts. */
async function until(what: string, ok: () => boolean, ms = 20_000) {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}

/**
 * Starts `holders` hanging runs of `holder` (each fake appends a pid to its .pids as it starts:
 * its slot is taken), then a run of `agent` in `sub`, which must queue; once that call has passed
 * its check and waits for a slot (its log says so), `sub` becomes a link out of the root and one
 * holder is cancelled, freeing its slot.
 */
async function swapWhileQueued(
  client: Client,
  opts: { holders: number; holder: string; agent: string; pids: () => number[]; sub: string; outside: string; logs: string },
) {
  const holderIds: string[] = [];
  const holding = Array.from({ length: opts.holders }, () =>
    call(client, "run_agent", { agent: opts.holder, prompt: "hold" }, (p) => {
      const id = runIdFrom(p);
      if (id) holderIds.push(id);
    }),
  );
  await until("every slot to be taken", () => opts.pids().length >= opts.holders);
  let queuedId: string | undefined;
  const queued = call(client, "run_agent", { agent: opts.agent, prompt: "go", cwd: "sub" }, (p) => {
    queuedId ??= runIdFrom(p);
  });
  const log = () => (queuedId ? join(opts.logs, queuedId, "events.jsonl") : "");
  await until("the run to wait for a slot", () => existsSync(log()) && readFileSync(log(), "utf8").includes('"label":"queued"'));
  rmSync(opts.sub, { recursive: true });
  symlinkSync(opts.outside, opts.sub);
  await call(client, "cancel_run", { runId: holderIds[0]! });
  const answer = await queued;
  for (const runId of holderIds.slice(1)) await call(client, "cancel_run", { runId });
  await Promise.all(holding);
  return answer;
}

function expectRefusedAtLaunch(answer: Awaited<ReturnType<typeof call>>, outside: string) {
  expect(answer.result.isError).toBe(true);
  const out = outcomeOf(answer.result);
  expect(out.status).toBe("failed");
  expect(out.error?.code).toBe("FORBIDDEN");
  expect(out.error?.message).toContain(`(really ${outside}) is outside this server's roots, as the agent was about to start`);
  expect(answer.texts.at(-1)).toContain("[FORBIDDEN]");
}

describe("od mcp checks the cwd when the agent starts, not only when it is asked for", () => {
  test("stdio: a queued run whose cwd became a link out of the root is refused at launch; the agent never runs there", async () => {
    await using tmp = tmpdir();
    const { root, outside, sub } = layout(tmp.path);
    // od mcp runs 8 agents at once: eight hanging codex fakes fill its slots; the queued run is claude's.
    const holder = installFake(tmp.path, "codex", [{ spawn: ["true"] }, { hang: true }]);
    const agent = installFake(tmp.path, "claude", [{ read: "all" }, { touch: "escaped.txt" }, { stdout: { type: "result" } }]);
    await using od = await connectStdio(["--root", root], agent.env, tmp.path);
    const answer = await swapWhileQueued(od.client, {
      holders: 8,
      holder: "codex",
      agent: "claude",
      pids: holder.pids,
      sub,
      outside,
      logs: join(agent.env.OD_HOME!, "runs"),
    });
    expectRefusedAtLaunch(answer, outside);
    expect(existsSync(agent.env.FAKE_RECORD!)).toBe(false); // claude never started
    expect(existsSync(join(outside, "escaped.txt"))).toBe(false);
  }, 60_000);

  test("/mcp under od serve: the same, behind the server's one slot", async () => {
    await using tmp = tmpdir();
    const { root, outside, sub } = layout(tmp.path);
    const fake = installFake(tmp.path, "fake-agent", [
      { read: "all" },
      { ifStdin: "hold", then: [{ spawn: ["true"] }, { hang: true }], else: [{ touch: "escaped.txt" }] },
    ]);
    const slots = new Slots(1);
    const logs = join(tmp.path, "runs");
    const runs = new Runs({ registry, log: new RunLog(logs), slots, env: fake.env });
    const policy = { maxMode: "read-only" as const, roots: [root] };
    const app = createApp({ registry, runs, token: TOKEN, allowedHosts: [HOST], env: fake.env, mcp: { policy } });
    const fetch = (url: string | URL | Request, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      headers.set("host", HOST);
      return app.request(String(url), { ...init, headers });
    };
    const transport = new StreamableHTTPClientTransport(new URL(`http://${HOST}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      fetch: fetch as typeof globalThis.fetch,
    });
    const client = new Client({ name: "od-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const answer = await swapWhileQueued(client, { holders: 1, holder: "fake", agent: "fake", pids: fake.pids, sub, outside, logs });
      expectRefusedAtLaunch(answer, outside);
      // The holder recorded its own start (in the root); the queued run never started the fake again.
      expect(readFileSync(fake.env.FAKE_RECORD!, "utf8")).toContain(`"cwd":"${root}"`);
      expect(existsSync(join(outside, "escaped.txt"))).toBe(false);
    } finally {
      await client.close();
    }
  }, 60_000);
});
