/** The conformance suite's MCP check (conformance.ts): one mechanism for every adapter, declared in its capabilities. */
import { expect } from "bun:test";
import { driverFor } from "../../src/core/agents/driver-for.ts";
import { createRegistry, type RegistryEntry } from "../../src/core/agents/registry.ts";
import type { Adapter } from "../../src/core/contract/adapter.ts";
import type { Mode } from "../../src/core/contract/events.ts";
import type { McpServer } from "../../src/core/contract/mcp.ts";
import { planRun } from "../../src/core/run/plan.ts";
import { tmpdir } from "../helpers.ts";

const MCP_SECRET = "ODMCP-SECRET-9f3a";
/** One server of each transport, each carrying a value that may be a credential. */
export const MCP_SERVERS: McpServer[] = [
  { name: "conf-stdio", command: "/opt/conf-mcp", args: ["--x"], env: [{ name: "CONF_TOKEN", value: MCP_SECRET }] },
  { type: "http", name: "conf-http", url: "https://conf.example/mcp", headers: [{ name: "X-Key", value: MCP_SECRET }] },
];

/**
 * Everything an adapter with capabilities.mcpServers hands its CLI for the servers: argv, env, the
 * files od writes for it, and for a session driver what it sends once the agent has said what it
 * takes (ACP: session/new after initialize).
 */
function mcpDelivered(adapter: Adapter): { argv: string[]; rest: string } {
  const inv = adapter.invoke({
    prompt: "x",
    cwd: "/w",
    mode: "edit",
    bin: adapter.bin,
    mcpServers: MCP_SERVERS,
    filesDir: "/tmp/od-files-conf",
  });
  let session = "";
  if (adapter.protocol.kind === "driver") {
    const driver = driverFor(adapter);
    const ctx = {
      agent: { name: adapter.name },
      prompt: "x",
      cwd: "/w",
      mode: "edit" as Mode,
      mcpServers: MCP_SERVERS,
      options: adapter.protocol.options,
    };
    const { state, send } = driver.start(ctx);
    const id = (send[0] as { id?: unknown } | undefined)?.id;
    const result = { protocolVersion: 1, agentCapabilities: { mcpCapabilities: { http: true, sse: true } } };
    const step = driver.receive({ jsonrpc: "2.0", id, result }, state, JSON.stringify({ jsonrpc: "2.0", id, result })) as {
      send?: unknown[];
    };
    session = JSON.stringify([send, step.send ?? []]);
  }
  return { argv: inv.argv, rest: JSON.stringify([inv.env ?? {}, inv.files ?? {}, session]) };
}

/**
 * Taken (capabilities.mcpServers), each server reaches the CLI (argv, environment, a private file or
 * its ACP session) and no value that may be a credential is in argv; not taken, the plan gives the
 * invocation none and the run says which were not given.
 */
export async function mcpConformance(entry: RegistryEntry): Promise<void> {
  const adapter = entry.adapter;
  if (adapter.capabilities.mcpServers && adapter.protocol.kind !== "loop") {
    const { argv, rest } = mcpDelivered(adapter);
    for (const s of MCP_SERVERS) expect(`${argv.join(" ")} ${rest}`).toContain(s.name);
    expect(argv.join(" ")).not.toContain(MCP_SECRET);
    expect(rest).toContain(MCP_SECRET); // in the environment, a private file or the session: never lost
  }
  await using tmp = tmpdir();
  // Full mode: every adapter plans in it (the kernel's part is the sandbox tests').
  const request = { agent: adapter.id, prompt: "x", cwd: tmp.path, mode: "full" as const, mcpServers: MCP_SERVERS };
  const plan = await planRun(request, {
    registry: createRegistry([entry]),
    env: { HOME: tmp.path, PATH: "/usr/bin:/bin" },
  });
  const said = plan.mcp.note?.type === "status" ? plan.mcp.note.detail : undefined;
  if (adapter.capabilities.mcpServers)
    expect({ given: plan.mcp.given.length, said }).toEqual({ given: MCP_SERVERS.length, said: undefined });
  else {
    expect(plan.mcp.given).toEqual([]);
    expect(said).toBe(`${adapter.name} cannot take MCP servers; these were not given: conf-stdio, conf-http`);
    expect(JSON.stringify(plan.invocation)).not.toContain("conf-stdio");
  }
}
