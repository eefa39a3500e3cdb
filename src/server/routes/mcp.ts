import { Hono } from "hono";
import type { Registry } from "../../core/agents/registry.ts";
import type { RunRequest } from "../../core/contract/request.ts";
import type { Slots } from "../../core/run/slots.ts";
import { type McpPolicy, resolveRoots } from "../../mcp/roots.ts";
import type { Keeper, LiveRuns as LiveRunsType } from "../../mcp/server.ts";
import { keepOpen } from "../connections.ts";
import type { RunStore } from "../runs.ts";

/** How `od serve` answers at /mcp: what callers may ask for (--max-mode, --root; default read-only, here), and the server's run slots. */
export interface McpOptions {
  policy?: McpPolicy;
  slots?: Slots;
}

/** The SDK is loaded on the first /mcp request, so a server no MCP client talks to never loads it. */
const sdk = () =>
  Promise.all([import("../../mcp/server.ts"), import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js")]).then(
    ([server, http]) => ({ ...server, Transport: http.WebStandardStreamableHTTPServerTransport }),
  );

/**
 * The server's runs keep MCP runs like their own: adopted by the run store (logged, listed, shown
 * in the UI, cancelled on shutdown), the request marked with origin "mcp".
 */
function storeKeeper(store: RunStore): Keeper {
  return (runId, request, controller, events) =>
    new Promise<void>((resolve, reject) => {
      async function* untilEnd() {
        try {
          yield* events;
        } finally {
          resolve();
        }
      }
      try {
        // No pid: the run is this server's own, which a server starting after it must mark failed, not leave live.
        store.adopt(runId, { ...request, origin: "mcp" } as RunRequest, controller, untilEnd());
      } catch (err) {
        reject(err);
      }
    });
}

/**
 * MCP over Streamable HTTP at /mcp, stateless: each request gets its own McpServer and transport
 * (the SDK's web-standard one) over the same runs, so cancel_run on one request reaches run_agent on
 * another. The app's security middleware has already checked the Host, the Origin and the token.
 * A client that disconnects does not cancel its run (the spec says so): cancel_run does. Only POST:
 * with no session there is no stream to open (GET) or end (DELETE).
 */
export function mcpRoutes(opts: McpOptions, registry: Registry, store: RunStore, env?: Record<string, string | undefined>) {
  let runs: LiveRunsType | undefined;
  const policy = opts.policy ?? { maxMode: "read-only", roots: resolveRoots([]) };
  return (
    new Hono()
      .post("/", async (c) => {
        const { createMcpServer, LiveRuns, Transport } = await sdk();
        runs ??= new LiveRuns();
        keepOpen(c, 0); // a run_agent answer streams for as long as the agent works
        const server = createMcpServer({ registry, policy, runs, keep: storeKeeper(store), env, slots: opts.slots });
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
