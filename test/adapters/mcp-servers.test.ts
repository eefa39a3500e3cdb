/**
 * How each CLI that takes MCP servers gets them, from one table of servers (the fixture), checked
 * against what its real CLI reads (each adapter's comments name the version and help line): Claude
 * Code a --mcp-config file, Codex -c overrides with the values in its environment, Qwen Code a
 * system-defaults settings file (Gemini CLI skips one root does not own: it takes none, gemini-acp
 * does). No value that may be a credential is ever in argv.
 */
import { describe, expect, test } from "bun:test";
import { tomlString } from "../../plugins/codex/mcp.ts";
import { loadRegistry } from "../../src/builtins.ts";
import type { Adapter, InvokeContext } from "../../src/core/contract/adapter.ts";
import type { McpServer } from "../../src/core/contract/mcp.ts";
import { viewPlan } from "../../src/core/run/dry-run.ts";
import { planRun } from "../../src/core/run/plan.ts";
import { tmpdir } from "../helpers.ts";

const SECRET = "s3cr3t-ODMCP";
const SERVERS: McpServer[] = [
  { name: "echo", command: "/opt/mcp/echo", args: ["--root", "/w p", 'say "hi"'], env: [{ name: "ECHO_TOKEN", value: SECRET }] },
  { type: "http", name: "docs", url: "https://mcp.example.com/mcp", headers: [{ name: "Authorization", value: `Bearer ${SECRET}` }] },
  { type: "sse", name: "events", url: "http://127.0.0.1:9/sse", headers: [] },
];
const FILES = "/tmp/od-files-test";

const registry = await loadRegistry([]);
const adapter = (id: string) => registry.get(id)!.adapter as Adapter;
const invoke = (id: string, over: Partial<InvokeContext> = {}) =>
  adapter(id).invoke({ prompt: "p", cwd: "/w", mode: "edit", bin: id, mcpServers: SERVERS, filesDir: FILES, ...over });

describe("MCP servers, per CLI", () => {
  test("Claude Code: a --mcp-config file in the run's private folder, in .mcp.json's shape; the only servers but in full mode", () => {
    const inv = invoke("claude");
    const at = inv.argv.indexOf("--mcp-config");
    expect(inv.argv.slice(at, at + 2)).toEqual(["--mcp-config", `${FILES}/mcp.json`]);
    // Edit (and read-only) take no servers from the user's or the folder's config (authority.test.ts); full adds these to them.
    expect(inv.argv).toContain("--strict-mcp-config");
    expect(invoke("claude", { mode: "full" }).argv).not.toContain("--strict-mcp-config");
    // `--mcp-config <configs...>` takes every word up to the next flag (claude 2.1.332 took "mcp" as a
    // config): a flag must follow the file, in every mode.
    for (const mode of ["read-only", "edit", "full"] as const) {
      const argv = invoke("claude", { mode }).argv;
      expect(argv[argv.indexOf("--mcp-config") + 2]).toStartWith("-");
    }
    expect(JSON.parse(inv.files!["mcp.json"]!)).toEqual({
      mcpServers: {
        echo: { type: "stdio", command: "/opt/mcp/echo", args: ["--root", "/w p", 'say "hi"'], env: { ECHO_TOKEN: SECRET } },
        docs: { type: "http", url: "https://mcp.example.com/mcp", headers: { Authorization: `Bearer ${SECRET}` } },
        events: { type: "sse", url: "http://127.0.0.1:9/sse", headers: {} },
      },
    });
  });

  test.each([
    [
      "claude",
      "read-only",
      0,
      "Claude Code cannot be held to read-only for MCP tools (od sees none of its approvals), so a read-only run gives it no MCP servers; these were not given: echo, docs, events",
    ],
    [
      "codex",
      "read-only",
      0,
      "Codex cannot be held to read-only for MCP tools (od sees none of its approvals), so a read-only run gives it no MCP servers; these were not given: echo, docs, events",
    ],
    [
      "qwen",
      "read-only",
      0,
      "Qwen Code cannot be held to read-only for MCP tools (od sees none of its approvals), so a read-only run gives it no MCP servers; these were not given: echo, docs, events",
    ],
    ["gemini", "edit", 0, "Gemini CLI cannot take MCP servers; these were not given: echo, docs, events"], // gemini-acp can
    ["gemini-acp", "edit", 3, undefined],
    ["claude-acp", "read-only", 3, undefined], // od's policy denies each MCP tool it asks about
    ["claude", "edit", 3, undefined],
    ["codex", "edit", 3, undefined],
    ["aider", "edit", 0, "Aider cannot take MCP servers; these were not given: echo, docs, events"],
  ])("the plan: %s in %s gets %d servers", async (agent, mode, given, said) => {
    await using tmp = tmpdir();
    const plan = await planRun(
      { agent, prompt: "p", cwd: tmp.path, mode: mode as "edit", mcpServers: SERVERS },
      { registry, env: { HOME: tmp.path, PATH: "/usr/bin:/bin" } },
    );
    expect(plan.mcp.given.length).toBe(given);
    expect(plan.mcp.note?.type === "status" ? plan.mcp.note.detail : undefined).toBe(said);
    if (!given) expect(JSON.stringify(plan.invocation)).not.toContain("/opt/mcp/echo");
  });

  test("Codex: -c mcp_servers.<name>.<key>=<TOML> after exec; variables and header values in its environment, named there", () => {
    const inv = invoke("codex");
    const overrides = inv.argv.flatMap((a, i) => (inv.argv[i - 1] === "-c" && a.startsWith("mcp_servers.") ? [a] : []));
    expect(overrides).toEqual([
      'mcp_servers.echo.command="/opt/mcp/echo"',
      'mcp_servers.echo.args=["--root","/w p","say \\"hi\\""]',
      'mcp_servers.echo.env_vars=["ECHO_TOKEN"]',
      'mcp_servers.docs.url="https://mcp.example.com/mcp"',
      'mcp_servers.docs.env_http_headers={"Authorization"="OD_MCP_SECRET_1_0"}',
    ]);
    expect(inv.argv[0]).toBe("exec");
    expect(inv.env).toEqual({ ECHO_TOKEN: SECRET, OD_MCP_SECRET_1_0: `Bearer ${SECRET}` });
    expect(inv.notes).toEqual([
      { label: "mcp", detail: "MCP server events was not given to Codex: Codex reaches MCP servers over streamable HTTP, not SSE" },
    ]);
    // Resumed: the overrides are exec's options, placed before its `resume` subcommand.
    const resumed = invoke("codex", { resume: "thread-1" }).argv;
    expect(resumed.indexOf("-c")).toBeLessThan(resumed.indexOf("resume"));
  });

  test("--dry-run says which servers Codex would leave out, as the run would", async () => {
    await using tmp = tmpdir();
    const plan = await planRun(
      { agent: "codex", prompt: "p", cwd: tmp.path, mode: "full", mcpServers: SERVERS },
      { registry, env: { HOME: tmp.path, PATH: "/usr/bin:/bin" } },
    );
    const view = viewPlan(plan);
    expect(view.mcp).toBe("MCP server events was not given to Codex: Codex reaches MCP servers over streamable HTTP, not SSE");
    expect(JSON.stringify(view)).not.toContain(SECRET);
  });

  test("Codex: a variable that steers Codex itself, or that two servers set differently, keeps that server out, said", () => {
    const path: McpServer = { name: "pathy", command: "x", args: [], env: [{ name: "PATH", value: "/opt/bin" }] };
    const a: McpServer = { name: "a", command: "x", args: [], env: [{ name: "KEY", value: "1" }] };
    const b: McpServer = { name: "b", command: "x", args: [], env: [{ name: "KEY", value: "2" }] };
    const same: McpServer = { name: "c", command: "x", args: [], env: [{ name: "KEY", value: "1" }] };
    const inv = invoke("codex", { mcpServers: [path, a, b, same] });
    expect(inv.notes?.map((n) => n.detail)).toEqual([
      "MCP server pathy was not given to Codex: Codex passes a server's variables through its own environment by name, and PATH steers Codex itself",
      "MCP server b was not given to Codex: another server sets KEY to another value, and Codex passes variables by name",
    ]);
    expect(inv.argv.filter((x) => x.endsWith('.command="x"'))).toEqual(['mcp_servers.a.command="x"', 'mcp_servers.c.command="x"']);
    expect(inv.env).toEqual({ KEY: "1" });
  });

  test("TOML strings for Codex: quotes, backslashes and control characters escaped (checked with codex 0.171.0's own parser: `codex mcp list --json -c …`)", () => {
    expect(tomlString('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(tomlString("tab\tnl\ndel\u007f")).toBe('"tab\\u0009nl\\u000adel\\u007f"');
    expect(tomlString("☃ $(x) `y` 'z'")).toBe("\"☃ $(x) `y` 'z'\"");
  });

  test.each([["qwen", "QWEN_CODE_SYSTEM_DEFAULTS_PATH"]])(
    "%s: a settings file of the run's own, named by %s (the system defaults: the user's files untouched)",
    (id, variable) => {
      const inv = invoke(id);
      expect(inv.env).toEqual({ [variable]: `${FILES}/settings.json` });
      expect(JSON.parse(inv.files!["settings.json"]!)).toEqual({
        mcpServers: {
          echo: { command: "/opt/mcp/echo", args: ["--root", "/w p", 'say "hi"'], env: { ECHO_TOKEN: SECRET } },
          docs: { httpUrl: "https://mcp.example.com/mcp", headers: { Authorization: `Bearer ${SECRET}` } },
          events: { url: "http://127.0.0.1:9/sse", headers: {} },
        },
      });
      expect(JSON.stringify(inv.files)).not.toContain('"trust"'); // never pre-approved
    },
  );

  test("without servers, no file, no variable and no flag of them", () => {
    for (const id of ["claude", "codex", "qwen"]) {
      // Full mode: in the others Claude is told to take no servers at all (--strict-mcp-config).
      const inv = invoke(id, { mcpServers: undefined, filesDir: undefined, mode: "full" });
      expect({ id, files: inv.files, notes: inv.notes, argv: inv.argv.join(" ").includes("mcp") }).toEqual({
        id,
        files: undefined,
        notes: undefined,
        argv: false,
      });
      expect(Object.keys(inv.env ?? {}).some((k) => k.includes("DEFAULTS_PATH") || k.startsWith("OD_MCP"))).toBe(false);
    }
  });

  test("which built-ins take MCP servers: the four CLIs above, and every ACP agent (its session/new)", () => {
    const takers = registry
      .list()
      .map((e) => e.adapter)
      .filter((a) => a.capabilities.mcpServers);
    const cli = takers.filter((a) => a.protocol.kind !== "driver" || a.protocol.driver !== "acp").map((a) => a.id);
    expect(cli.sort()).toEqual(["claude", "codex", "qwen"]);
    const acp = registry.list().filter((e) => e.adapter.protocol.kind === "driver" && e.adapter.protocol.driver === "acp");
    expect(acp.length).toBeGreaterThan(5);
    for (const e of acp) expect({ id: e.adapter.id, takes: e.adapter.capabilities.mcpServers }).toEqual({ id: e.adapter.id, takes: true });
  });
});
