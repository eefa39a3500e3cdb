/**
 * /mcp without od's token: a 401 an MCP client reads as "send the token", not as "start OAuth". The
 * challenge (WWW-Authenticate: Bearer, RFC 6750) points at no protected resource metadata, OAuth's
 * discovery documents answer 404, and every OAuth endpoint a client may try anyway answers in
 * OAuth's error format with what to do: send the token saved under the OD_HOME in force.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Slots } from "../../src/core/os/slots.ts";
import { Runs } from "../../src/core/runs/service.ts";
import { RunLog } from "../../src/core/store/run-log.ts";
import { createApp } from "../../src/server/app.ts";
import { tmpdir } from "../helpers.ts";
import { HOST, registry, TOKEN } from "../server/support.ts";

/** The app with OD_HOME somewhere else than ~/.open-design, and every request it saw ("GET /path -> 404"). */
function app(dir: string) {
  const env = { HOME: dir, OD_HOME: join(dir, "elsewhere") };
  const runs = new Runs({ registry, log: new RunLog(join(dir, "runs")), slots: new Slots(1), env });
  const server = createApp({ registry, runs, token: TOKEN, allowedHosts: [HOST], env });
  const seen: string[] = [];
  const fetch = async (url: string | URL | Request, init?: RequestInit) => {
    const req = new Request(url, init);
    const headers = new Headers(req.headers);
    headers.set("host", HOST);
    const res = await server.request(new Request(req, { headers }));
    seen.push(`${req.method} ${new URL(req.url).pathname} -> ${res.status}`);
    return res;
  };
  return { fetch, seen, tokenFile: join(dir, "elsewhere", "server-token") };
}

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};
const post = (headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
  body: JSON.stringify(INIT),
});

describe("/mcp without the token", () => {
  test("401 with a Bearer challenge (no resource metadata), and a hint naming the token file under OD_HOME", async () => {
    await using tmp = tmpdir();
    const { fetch, tokenFile } = app(tmp.path);
    const missing = await fetch("http://x/mcp", post());
    expect(missing.status).toBe(401);
    // No credentials: the challenge alone (RFC 6750 3.1: no error code for a client that sent none).
    expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="od"');
    expect((await missing.json()).error.hint).toContain(tokenFile);
    const wrong = await fetch("http://x/mcp", post({ authorization: "Bearer nope" }));
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toBe(
      'Bearer realm="od", error="invalid_token", error_description="The od token is wrong"',
    );
    expect((await wrong.json()).error.hint).not.toContain(".open-design");
    // /api's 401 is the same challenge (HTTP: every 401 has one).
    expect((await fetch("http://x/api/runs")).headers.get("www-authenticate")).toBe('Bearer realm="od"');
  });

  test("OAuth's discovery documents are 404 (JSON, not the UI's page); its endpoints say to send the token", async () => {
    await using tmp = tmpdir();
    const { fetch, tokenFile } = app(tmp.path);
    for (const path of [
      "/.well-known/oauth-protected-resource",
      "/.well-known/oauth-protected-resource/mcp",
      "/.well-known/oauth-authorization-server",
      "/.well-known/oauth-authorization-server/mcp",
      "/.well-known/openid-configuration",
    ]) {
      const res = await fetch(`http://x${path}`);
      expect([path, res.status, res.headers.get("content-type")]).toEqual([path, 404, "application/json"]);
    }
    for (const [method, path] of [
      ["POST", "/register"],
      ["GET", "/authorize"],
      ["POST", "/token"],
    ] as const) {
      const res = await fetch(`http://x${path}`, { method });
      const body = await res.json();
      expect([path, res.status, body.error]).toEqual([path, 404, "invalid_request"]);
      expect(body.error_description).toContain(tokenFile);
    }
  });

  test("the SDK's client reports the 401 and its hint, and asks for nothing else (no discovery, no /register)", async () => {
    await using tmp = tmpdir();
    const { fetch, seen, tokenFile } = app(tmp.path);
    const transport = new StreamableHTTPClientTransport(new URL("http://x/mcp"), { fetch: fetch as typeof globalThis.fetch });
    const err = (await new Client({ name: "t", version: "1" }).connect(transport).catch((e) => e)) as Error & { code?: number };
    expect(err.code).toBe(401);
    expect(err.message).toContain(tokenFile);
    expect(seen).toEqual(["POST /mcp -> 401"]);
  });

  test("a client that tries OAuth anyway (an auth provider, as mcp-remote and mcporter have) is told to send the token", async () => {
    await using tmp = tmpdir();
    const { fetch, seen, tokenFile } = app(tmp.path);
    let redirected = false;
    const provider: OAuthClientProvider = {
      redirectUrl: "http://127.0.0.1:1/callback",
      clientMetadata: { redirect_uris: ["http://127.0.0.1:1/callback"], client_name: "t" },
      clientInformation: () => undefined,
      saveClientInformation: () => {},
      tokens: () => undefined,
      saveTokens: () => {},
      redirectToAuthorization: () => {
        redirected = true;
      },
      saveCodeVerifier: () => {},
      codeVerifier: () => "",
    };
    const transport = new StreamableHTTPClientTransport(new URL("http://x/mcp"), {
      fetch: fetch as typeof globalThis.fetch,
      authProvider: provider,
    });
    const err = (await new Client({ name: "t", version: "1" }).connect(transport).catch((e) => e)) as Error;
    expect(err.message).toContain(`send the token saved in ${tokenFile}`);
    expect(redirected).toBe(false);
    expect(seen.filter((s) => !s.startsWith("GET /.well-known/"))).toEqual(["POST /mcp -> 401", "POST /register -> 404"]);
  });
});
