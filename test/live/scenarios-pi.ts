// pi-only live scenarios: what pi does by itself that od must leave to it. pi retries a
// transient model error on its own (auto_retry_start, then a new agent_start after 2, 4, 8 s),
// after it has already sent agent_end; od must wait for that verdict instead of ending the run.
import { expect } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LiveCli } from "./clis.ts";
import { checkRun, turns } from "./lane.ts";
import type { ScenarioFn } from "./matrix.ts";
import { OD_TIMEOUT_S, runOd } from "./od.ts";

const TEXT = "OD_LIVE_PI_RETRY_OK";

export function piScenarios(cli: LiveCli, scenario: ScenarioFn): void {
  if (cli.id !== "pi") return;

  scenario(cli, "pi-retry", { kind: "http-error", status: 503, times: 1, then: { kind: "chat", text: TEXT } }, async (fx) => {
    // The provider SDK's own quiet retries off, so the 503 reaches pi's auto-retry (the one od used to cut short).
    const settings = join(fx.home, ".pi", "agent", "settings.json");
    const current = JSON.parse(readFileSync(settings, "utf8"));
    writeFileSync(settings, JSON.stringify({ ...current, retry: { provider: { maxRetries: 0 } } }, null, 2));
    // --retries 0: the answer must come from pi's retry, not from od running pi again.
    const args = ["--agent", cli.id, "--cwd", fx.work, "--timeout", String(OD_TIMEOUT_S), "--retries", "0", "Say hi"];
    const r = await runOd(args, { env: fx.env, cwd: fx.work });
    checkRun(r);
    expect(r.of("error")).toEqual([]);
    expect(r.exitCode).toBe(0);
    expect(r.finished?.status).toBe("succeeded");
    expect(r.text).toBe(TEXT);
    const retry = r.of("status").find((s) => s.label === "retrying");
    expect(retry?.detail, "pi's retry shows as a status").toMatch(/^1\/3 in 2s: 503\b/);
    expect(r.of("run.started"), "one pi process: pi retried, not od").toHaveLength(1);
    expect(turns(fx.stub).map((t) => t.answered)).toEqual(["http-503", "text"]);
    return `${retry!.detail}; ${r.ms} ms`;
  });
}
