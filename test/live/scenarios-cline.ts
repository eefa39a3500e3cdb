// Cline-only live scenarios. By default Cline runs its sessions in a hub, a daemon it starts
// detached (`cline --cline-hub-daemon --port 25463`, its own session and process group) that
// outlives `cline --acp`; the adapter runs the session inside the ACP process instead
// (CLINE_SESSION_BACKEND_MODE=local). Checked here after a run that ended by itself; the matrix's
// `cancel` scenario checks the same after a cancel.
import { expect } from "bun:test";
import type { LiveCli } from "./clis.ts";
import { checkRun } from "./lane.ts";
import type { ScenarioFn } from "./matrix.ts";
import { OD_TIMEOUT_S, runOd } from "./od.ts";
import { survivors } from "./procs.ts";

const TEXT = "OD_LIVE_CLINE_DONE";

export function clineScenarios(cli: LiveCli, scenario: ScenarioFn): void {
  if (cli.id !== "cline") return;

  scenario(cli, "cline-no-daemon", { kind: "chat", text: TEXT }, async (fx) => {
    const r = await runOd(["--agent", cli.id, "--cwd", fx.work, "--timeout", String(OD_TIMEOUT_S), "Say hi"], {
      env: fx.env,
      cwd: fx.work,
    });
    checkRun(r);
    expect(r.exitCode).toBe(0);
    expect(r.text).toBe(TEXT);
    // The hub names the run's folder (--cwd) and has its HOME: survivors() would list it.
    const left = survivors([], { home: fx.home, work: fx.work });
    expect(
      left.map((p) => `${p.pid} ${p.cmdline}`),
      "no process of the run outlives it",
    ).toEqual([]);
    return `${r.ms} ms, nothing left running`;
  });
}
