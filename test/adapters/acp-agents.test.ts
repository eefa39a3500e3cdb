/**
 * The ACP agents' own choices that the shared suites do not see: per-mode environment and flags
 * (none of them may loosen anything below `full`), and OpenClaw's missing-Gateway failure,
 * whose real shape is an exit 1 with only a stderr line.
 */
import { describe, expect, test } from "bun:test";
import { loadRegistry } from "../../src/builtins.ts";
import type { Adapter, InvokeContext } from "../../src/core/contract/adapter.ts";

const registry = await loadRegistry([]);
const adapter = (id: string): Adapter => registry.get(id)!.adapter;
const ctx = (mode: InvokeContext["mode"]): InvokeContext => ({ prompt: "x", cwd: "/work/project", mode, bin: "/usr/bin/x" });

describe("ACP agents", () => {
  test("kilo: every edit and command is asked through od below full", () => {
    const kilo = adapter("kilo");
    expect(kilo.invoke(ctx("edit"))).toEqual({ argv: ["acp"], env: { KILO_PERMISSION: '{"edit":"ask","bash":"ask"}' } });
    expect(kilo.invoke(ctx("full")).env).toBeUndefined();
  });

  test("codex-acp: the bridge's starting mode follows od's mode", () => {
    const codex = adapter("codex-acp");
    expect(codex.invoke(ctx("edit")).env).toEqual({ INITIAL_AGENT_MODE: "workspace-write" });
    expect(codex.invoke(ctx("full")).env).toEqual({ INITIAL_AGENT_MODE: "agent-full-access" });
  });

  test("reasonix: writes stay in the working directory below full", () => {
    const reasonix = adapter("reasonix");
    expect(reasonix.invoke(ctx("edit")).argv).toEqual(["acp", "-workspace-only"]);
    expect(reasonix.invoke(ctx("full")).argv).toEqual(["acp"]);
  });

  test("cline: its session runs inside the ACP process (no hub daemon), auto-approve only in full", () => {
    const cline = adapter("cline");
    // Without CLINE_SESSION_BACKEND_MODE=local, 3.0.65 starts `cline --cline-hub-daemon` detached, which outlives the run.
    const env = { CLINE_SESSION_BACKEND_MODE: "local", CLINE_NO_AUTO_UPDATE: "1" };
    expect(cline.invoke(ctx("read-only"))).toEqual({ argv: ["--acp", "--auto-approve", "false"], env });
    expect(cline.invoke(ctx("edit"))).toEqual({ argv: ["--acp", "--auto-approve", "false"], env });
    expect(cline.invoke(ctx("full"))).toEqual({ argv: ["--acp", "--auto-approve", "true"], env });
  });

  test("openclaw: no Gateway listening is named, with how to start one", () => {
    const stderrTail = "ACP bridge failed: connect ECONNREFUSED 127.0.0.1:18789\n";
    const found = adapter("openclaw").classify?.({ exitCode: 1, signal: null, stderrTail, events: [] });
    expect(found).toMatchObject({ code: "AGENT_ERROR", message: expect.stringContaining("ECONNREFUSED 127.0.0.1:18789") });
    expect(found?.hint).toContain("openclaw gateway");
  });

  test("versions parse from each CLI's real --version output", () => {
    const cases: Array<[string, string, string]> = [
      ["kilo", "7.7.7\n", "7.7.7"],
      ["cline", "3.0.65\n", "3.0.65"],
      ["claude-acp", "0.101.0\n", "0.101.0"],
      ["codex-acp", "@agentclientprotocol/codex-acp 2.6.0\n", "2.6.0"],
      ["reasonix", "reasonix v1.38.11\n", "1.38.11"],
      ["auggie", "0.36.0 (commit 7c61e5bb)\n", "0.36.0"],
      ["openclaw", "OpenClaw 2026.9.6 (eb377ac)\n", "2026.9.6"],
    ];
    for (const [id, out, version] of cases) expect(adapter(id).version.parse?.(out)).toBe(version);
  });
});
