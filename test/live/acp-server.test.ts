// od as an ACP agent, in the live lane: acpx (a real ACP client from npm) drives `dist/od acp` over
// real Claude Code against the loopback model stub: a chat, a tool call with its updates, a cancel
// (`od acp --agent claude`), and a permission request acpx answers. Claude Code's headless stream
// relays no permission requests, so that one runs through the real Claude Code's ACP bridge
// (`od acp --agent claude-acp`, which asks before every edit in edit mode). Runs with OD_LIVE=1.
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ACPX, acpx, cancelled, NO_ACPX, stopReasonOf, textOf, updatesOf } from "../acp/acpx-support.ts";
import { CLIS, installCli, type LiveCli } from "./clis.ts";
import { type Fixture, fixture } from "./lane.ts";
import type { Scenario } from "./model-stub.ts";
import { DIST_OD, ensureBuilt } from "./od.ts";
import { survivors } from "./procs.ts";

const LIVE = process.env.OD_LIVE === "1";
const TIMEOUT = 120_000;
const FINAL = "OD_ACP_LIVE_OK";
const claude = CLIS.find((c) => c.id === "claude")!;
const claudeAcp = CLIS.find((c) => c.id === "claude-acp")!;

const ready = LIVE && ACPX ? await ensureBuilt().then(() => true) : false;
const suite = ready ? describe : describe.skip;
if (!LIVE) test.skip("od acp under acpx, live (OD_LIVE=1 runs it)", () => {});
else if (!ACPX) test.skip(`od acp under acpx, live: ${NO_ACPX}`, () => {});

/** A fresh fixture (HOME, work dir, stub) for `cli`, disposed after `body`. */
async function withFixture(cli: LiveCli, scenario: Scenario, body: (fx: Fixture) => Promise<void>): Promise<void> {
  const binDir = await installCli(cli);
  const fx = await fixture(cli, binDir, scenario);
  try {
    await body(fx);
  } finally {
    await fx.dispose();
  }
}

const od = (agent: string, ...more: string[]) => [DIST_OD, "acp", "--agent", agent, ...more].join(" ");

suite("od acp under acpx, real Claude Code", () => {
  test(
    "claude: a chat with a tool call (tool_call, tool_call_update completed), the file written, end_turn",
    () =>
      withFixture(claude, { kind: "tool-write", file: "hello.txt", content: "hi\n", finalText: FINAL }, async (fx) => {
        const r = await acpx(od("claude"), fx.work, ["--approve-all", "exec", "Create hello.txt"], fx.env);
        expect(r.code, r.stderr).toBe(0);
        const call = updatesOf(r.wire, "tool_call").find((u) => u.kind === "edit");
        expect(call, JSON.stringify(updatesOf(r.wire, "tool_call"))).toBeDefined();
        expect(updatesOf(r.wire, "tool_call_update")).toContainEqual(
          expect.objectContaining({ toolCallId: call.toolCallId, status: "completed" }),
        );
        expect(textOf(r.wire)).toContain(FINAL);
        expect(stopReasonOf(r.wire)).toBe("end_turn");
        expect(existsSync(join(fx.work, "hello.txt"))).toBe(true);
      }),
    TIMEOUT,
  );

  test(
    "claude: acpx cancel ends a stalled turn cancelled, and no Claude Code process is left",
    () =>
      withFixture(claude, { kind: "stall" }, async (fx) => {
        // Ready once the model request is in flight (the stub holds it): the run has started.
        const r = await cancelled(od("claude"), fx.work, "Say something slowly", fx.env, () => fx.stub.requests.length > 0);
        expect(r.wire.some((m) => m.method === "session/cancel")).toBe(true);
        expect(stopReasonOf(r.wire)).toBe("cancelled");
        const left = survivors([], { home: fx.home, work: fx.work }).filter((p) => /claude-code|\/claude\b/.test(p.cmdline));
        expect(left.map((p) => p.cmdline)).toEqual([]);
      }),
    TIMEOUT,
  );

  test(
    "claude-acp: the edit's permission request reaches acpx; --approve-all writes the file, --deny-all does not",
    () =>
      withFixture(claudeAcp, { kind: "tool-write", file: "hello.txt", content: "hi\n", finalText: FINAL }, async (fx) => {
        const no = await acpx(od("claude-acp"), fx.work, ["--deny-all", "exec", "Create hello.txt"], fx.env);
        expect(no.wire.filter((m) => m.method === "session/request_permission").length, no.stderr).toBeGreaterThan(0);
        expect(existsSync(join(fx.work, "hello.txt"))).toBe(false);
        const yes = await acpx(od("claude-acp"), fx.work, ["--approve-all", "exec", "Create hello.txt"], fx.env);
        expect(yes.wire.filter((m) => m.method === "session/request_permission").length, yes.stderr).toBeGreaterThan(0);
        expect(existsSync(join(fx.work, "hello.txt"))).toBe(true);
        expect(stopReasonOf(yes.wire)).toBe("end_turn");
      }),
    TIMEOUT,
  );

  test(
    "claude-acp, read-only: acpx --approve-all is never asked to allow the write, and nothing is written",
    () =>
      withFixture(claudeAcp, { kind: "tool-write", file: "hello.txt", content: "hi\n", finalText: FINAL }, async (fx) => {
        const r = await acpx(od("claude-acp", "--mode", "read-only"), fx.work, ["--approve-all", "exec", "Create hello.txt"], fx.env);
        const asked = r.wire.filter((m) => m.method === "session/request_permission").map((m) => m.params?.toolCall?.kind);
        expect(asked.filter((k) => k !== "read")).toEqual([]);
        expect(existsSync(join(fx.work, "hello.txt"))).toBe(false);
      }),
    TIMEOUT,
  );
});
