/** MCP over Streamable HTTP at /mcp under `od serve`: the SDK's own client, the server's token, Host and Origin checks. */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Mode } from "../../src/core/contract/events.ts";
import { Slots } from "../../src/core/os/slots.ts";
import { Runs } from "../../src/core/runs/service.ts";
import { RunLog } from "../../src/core/store/run-log.ts";
import { createApp } from "../../src/server/app.ts";
import { startServer } from "../../src/server/serve.ts";
import { type FakeStep, installFake, tmpdir } from "../helpers.ts";
import { HOST, registry, TOKEN } from "../server/support.ts";
import { call, outcomeOf, runIdFrom } from "./support.ts";

const WORKS: FakeStep[] = [
  { read: "all" },
  { touch: "x.txt" },
  { stdout: { t: "session", v: "sess-1" } },
  { stdout: { t: "text", v: "hello " } },
  { stdout: { t: "text", v: "world" } },
];

/** A folder for the agent to work in, apart from the fake's files and the run log. */
function workIn(dir: string): string {
  const work = join(dir, "work");
  mkdirSync(work);
  return work;
}

/** The app over the fake agent in `dir`, MCP allowed up to `maxMode` under `dir`/work. */
function mcpApp(dir: string, script: FakeStep[], maxMode: Mode = "edit") {
  const fake = installFake(dir, "fake-agent", script);
  const work = workIn(dir);
  const runs = new Runs({ registry, log: new RunLog(join(dir, "runs")), slots: new Slots(4), env: fake.env });
  const app = createApp({ registry, runs, token: TOKEN, allowedHosts: [HOST], env: fake.env, mcp: { policy: { maxMode, roots: [work] } } });
  const fetch = async (url: string | URL | Request, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    headers.set("host", HOST);
    return app.request(String(url), { ...init, headers });
  };
  return { app, runs, fake, fetch };
}

async function connect(fetch: (url: string | URL | Request, init?: RequestInit) => Promise<Response>, url = `http://${HOST}/mcp`) {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    fetch: fetch as typeof globalThis.fetch,
  });
  const client = new Client({ name: "od-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

describe("/mcp under od serve", () => {
  test("initialize, tools/list and run_agent with the token; the run is one of the server's runs", async () => {
    await using tmp = tmpdir();
    const { runs, fake, fetch } = mcpApp(tmp.path, WORKS);
    const client = await connect(fetch);
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(["cancel_run", "list_agents", "run_agent"]);
    const { result, progress, texts } = await call(client, "run_agent", { agent: "fake", prompt: "go", mode: "edit" });
    const out = outcomeOf(result);
    expect(out).toMatchObject({ status: "succeeded", text: "hello world", sessionId: "sess-1", files: ["x.txt"] });
    expect(texts[0]).toBe("hello world");
    expect(runIdFrom(progress[0]!)).toBe(out.runId);
    expect(
      progress
        .slice(1)
        .map((p) => p.message)
        .join(""),
    ).toBe("hello world");
    expect(fake.recorded().argv).toEqual(["--mode", "edit"]);
    // Logged and listed like the server's own runs, marked as MCP's.
    expect(runs.summary(out.runId)).toMatchObject({ status: "succeeded", agent: "fake" });
    expect(JSON.parse(readFileSync(join(tmp.path, "runs", out.runId, "request.json"), "utf8"))).toMatchObject({ origin: "mcp" });
    await client.close();
  });

  test("read-only by default, and the server's maximum holds over HTTP too", async () => {
    await using tmp = tmpdir();
    const { fake, fetch } = mcpApp(tmp.path, WORKS, "read-only");
    const client = await connect(fetch);
    const ro = await call(client, "run_agent", { agent: "fake", prompt: "look" });
    expect(outcomeOf(ro.result).status).toBe("succeeded");
    expect(fake.recorded().argv).toEqual(["--mode", "read-only"]);
    const edit = await call(client, "run_agent", { agent: "fake", prompt: "write", mode: "edit" });
    expect(edit.result.isError).toBe(true);
    expect(edit.texts[0]).toContain("[FORBIDDEN]");
    await client.close();
  });

  test("refused without the token, with a wrong one, from a foreign origin, or for a foreign host", async () => {
    await using tmp = tmpdir();
    const { app } = mcpApp(tmp.path, WORKS);
    const post = (headers: Record<string, string>) =>
      app.request("/mcp", {
        method: "POST",
        headers: { host: HOST, "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body: JSON.stringify(INIT),
      });
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await post({})).status).toBe(401);
    expect((await post({ authorization: "Bearer wrong" })).status).toBe(401);
    expect((await post({ ...auth, origin: "http://evil.example" })).status).toBe(403);
    expect((await post({ ...auth, host: "evil.example:7456" })).status).toBe(403);
    expect((await app.request("/mcp", { headers: { host: HOST } })).status).toBe(401); // GET too
    const get = await app.request("/mcp", { headers: { host: HOST, ...auth, accept: "text/event-stream" } });
    expect([get.status, get.headers.get("allow")]).toEqual([405, "POST"]); // stateless: no stream to open
    const ok = await post({ ...auth, origin: `http://${HOST}` });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('"serverInfo":{"name":"od"');
  });

  test("cancel_run on one request reaches run_agent on another", async () => {
    await using tmp = tmpdir();
    const { fetch } = mcpApp(tmp.path, [{ read: "all" }, { hang: true }]);
    const [a, b] = [await connect(fetch), await connect(fetch)];
    let cancel: Promise<unknown> | undefined;
    const { result } = await call(a, "run_agent", { agent: "fake", prompt: "wait" }, (p) => {
      const runId = runIdFrom(p);
      if (runId) cancel = call(b, "cancel_run", { runId });
    });
    expect(outcomeOf(result).status).toBe("cancelled");
    expect(((await cancel) as Awaited<ReturnType<typeof call>>).result.isError).toBeFalsy();
    await Promise.all([a.close(), b.close()]);
  });

  test("over a real socket: startServer serves /mcp with its flags", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-agent", WORKS);
    const server = startServer({
      host: "127.0.0.1",
      port: 0,
      maxRuns: 2,
      registry,
      env: fake.env,
      mcp: { maxMode: "edit", roots: [workIn(tmp.path)] },
    });
    try {
      const transport = new StreamableHTTPClientTransport(new URL(`${server.url}mcp`), {
        requestInit: { headers: { authorization: `Bearer ${server.token}` } },
      });
      const client = new Client({ name: "od-test", version: "1.0.0" });
      await client.connect(transport);
      const { result } = await call(client, "run_agent", { agent: "fake", prompt: "go", mode: "edit" });
      expect(outcomeOf(result)).toMatchObject({ status: "succeeded", text: "hello world", sessionId: "sess-1", files: ["x.txt"] });
      await client.close();
    } finally {
      await server.stop();
    }
  });
});
