/**
 * No more authority than the mode asked for, at the edges the conformance suite does not see:
 * a CLI whose edit would be a full run, a CLI whose defaults allow shell in edit, values that a
 * CLI's parser would read as flags of their own, and a prompt passed as a positional.
 */
import { describe, expect, test } from "bun:test";
import { loadRegistry } from "../../src/builtins.ts";
import type { Adapter } from "../../src/core/contract/adapter.ts";
import { collect, ofType, tmpdir } from "../helpers.ts";
import { planRun, runAgent } from "../support/run.ts";

const registry = await loadRegistry([]);
const adapter = (id: string): Adapter => registry.get(id)!.adapter;
const invoke = (id: string, over: Partial<Parameters<Adapter["invoke"]>[0]> = {}) =>
  adapter(id).invoke({ prompt: "x", cwd: "/work/project", mode: "edit", bin: id, ...over });

describe("authority", () => {
  test("kimi runs every tool unasked when headless: without the kernel sandbox it is offered in full mode only", async () => {
    await using tmp = tmpdir();
    const env = { HOME: tmp.path, OD_HOME: `${tmp.path}/.od`, PATH: "/usr/bin:/bin", OD_SANDBOX: "off" };
    for (const mode of ["edit", "read-only"] as const) {
      const events = await collect(runAgent({ agent: "kimi", prompt: "x", cwd: tmp.path, mode }, { registry, env }));
      expect(ofType(events, "error")[0]).toMatchObject({ code: "INVALID_REQUEST" });
    }
    expect((await planRun({ agent: "kimi", prompt: "x", cwd: tmp.path, mode: "full" }, { registry, env })).argv).toContain("stream-json");
  });

  test("claude in read-only and edit: the folder's settings add no hook and no MCP server; full keeps them", () => {
    // Checked with 2.1.332 against the loopback model: a repository's .claude/settings.json hook ran under plan
    // mode, and its .mcp.json server started (enableAllProjectMcpServers); with these flags neither did, while
    // CLAUDE.md, the folder's skills and agents (od's native skills and roles) still loaded.
    const confined = ["--strict-mcp-config", "--settings", '{"disableAllHooks":true}'];
    for (const mode of ["read-only", "edit"] as const) {
      const argv = invoke("claude", { mode }).argv;
      expect(argv.join(" ")).toContain(confined.join(" "));
      // Servers given to the run still come, from its own file: --mcp-config takes words up to the next flag.
      const given = invoke("claude", { mode, mcpServers: [{ name: "s", command: "srv", args: [], env: [] }], filesDir: "/p" }).argv;
      expect(given.slice(given.indexOf("--mcp-config"), given.indexOf("--mcp-config") + 3)).toEqual([
        "--mcp-config",
        "/p/mcp.json",
        "--strict-mcp-config",
      ]);
      // A version without them (1.x) gets neither; the kernel still holds the mode.
      expect(invoke("claude", { mode, flags: new Set() }).argv).not.toContain("--strict-mcp-config");
    }
    const full = invoke("claude", { mode: "full" }).argv;
    expect(full).not.toContain("--strict-mcp-config");
    expect(full).not.toContain("--settings");
  });

  test("opencode in edit mode asks (and so, headless, refuses) before shell and web fetches; full lifts it", () => {
    expect(JSON.parse(invoke("opencode").env!.OPENCODE_PERMISSION!)).toEqual({ bash: "ask", webfetch: "ask" });
    expect(JSON.parse(invoke("opencode", { mode: "read-only" }).env!.OPENCODE_PERMISSION!)).toEqual({ edit: "deny", bash: "deny" });
    expect(invoke("opencode", { mode: "full" }).env?.OPENCODE_PERMISSION).toBeUndefined();
  });

  test("a model, session, role, effort or tool that starts with '-' is refused before anything starts", async () => {
    await using tmp = tmpdir();
    const env = { HOME: tmp.path, OD_HOME: `${tmp.path}/.od`, PATH: "/usr/bin:/bin" };
    const smuggled = [
      { model: "--auto" },
      { resume: "--dangerously-bypass-approvals-and-sandbox" },
      { role: "-x" },
      { effort: "--yolo" },
      { allowedTools: ["--allowed-tools=run_shell_command"] },
    ];
    for (const over of smuggled) {
      const events = await collect(runAgent({ agent: "opencode", prompt: "x", cwd: tmp.path, ...over }, { registry, env }));
      expect(ofType(events, "error")[0]).toMatchObject({
        code: "INVALID_REQUEST",
        message: expect.stringContaining("must not start with '-'"),
      });
      expect(ofType(events, "run.started")).toEqual([]);
    }
  });

  test("a prompt passed as a positional comes after '--', so one that starts with '-' stays the prompt", () => {
    const argv = invoke("deepseek", { prompt: "--auto" }).argv;
    expect(argv.slice(-2)).toEqual(["--", "--auto"]);
  });
});
