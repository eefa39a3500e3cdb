import { Hono } from "hono";
import type { Registry } from "../../core/agents/registry.ts";
import type { Runs } from "../../core/runs/service.ts";
import { type McpPolicy, resolveRoots } from "../../mcp/roots.ts";
import { keepOpen } from "../connections.ts";

/** How `od serve` answers at /mcp: what callers may ask for (--max-mode, --root; default read-only, here). */
export interface McpOptions {
  policy?: McpPolicy;
}

/** The SDK is loaded on the first /mcp request, so a server no MCP client talks to never loads it. */
const sdk = () =>
  Promise.all([import("../../mcp/server.ts"), import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js")]).then(
    ([server, http]) => ({ ...server, Transport: http.WebStandardStreamableHTTPServerTransport }),
  );

/**
 * MCP over Streamable HTTP at /mcp, stateless: each request gets its own McpServer and transport
 * (the SDK's web-standard one) over the server's runs, so cancel_run on one request reaches run_agent on
 * another. The app's security middleware has already checked the Host, the Origin and the token.
 * A client that disconnects does not cancel its run (the spec says so): cancel_run does. Only POST:
 * with no session there is no stream to open (GET) or end (DELETE).
 */
export function mcpRoutes(opts: McpOptions, registry: Registry, runs: Runs, env?: Record<string, string | undefined>) {
  const policy = opts.policy ?? { maxMode: "read-only", roots: resolveRoots([]) };
  return (
    new Hono()
      .post("/", async (c) => {
        const { createMcpServer, Transport } = await sdk();
        keepOpen(c, 0); // a run_agent answer streams for as long as the agent works
        // The server's own runs: MCP runs are recorded, listed and shown in the UI like its own, on its slots.
        const server = createMcpServer({ registry, policy, runs, env });
        const transport = new Transport({ sessionIdGenerator: undefined, enableJsonResponse: false });
        await server.connect(transport);
        return transport.handleRequest(c.req.raw);
      })
      // Stateless: no session to stream to (GET) or to end (DELETE); the spec's answer is 405.
      .all("/", (c) =>
        c.json({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: POST only" }, id: null }, 405, { allow: "POST" }),
      )
  );
}
