// Authority in edit mode, against the real CLI: the model asks to run a shell command that
// writes a file. Edit mode allows file edits, not commands, so the command must not run, and
// the refused call must show as a tool.call with an error tool.result (never only as a
// permission event). Registered for every CLI that names its shell tool (LiveCli.shellTool).
import { expect } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { LiveCli } from "./clis.ts";
import { checkRun, turns } from "./lane.ts";
import type { ScenarioFn } from "./matrix.ts";
import { OD_TIMEOUT_S, runOd } from "./od.ts";

const FILE = "denied.txt";
const FINAL = "OD_LIVE_DENIED_OK";

export function authority(cli: LiveCli, scenario: ScenarioFn): void {
  const shell = cli.shellTool;
  if (!shell) return;
  const command = `printf 'ran anyway\\n' > ${FILE}`;
  const steps = [{ tools: [{ name: shell.name, args: shell.args(command) }] }, { text: FINAL }];
  scenario(cli, "edit-denies-shell", { kind: "script", steps }, async (fx) => {
    const args = ["--agent", cli.id, "--cwd", fx.work, "--timeout", String(OD_TIMEOUT_S), "--mode", "edit", "Run the command"];
    const r = await runOd([...args], { env: fx.env, cwd: fx.work });
    checkRun(r);
    expect(
      turns(fx.stub).map((t) => t.answered),
      "the model asked for the shell tool",
    ).toContain(`tool:${shell.name}`);
    expect(existsSync(join(fx.work, FILE)), "the command must not have run").toBe(false);
    // ACP agents that give no tool name (Gemini) are named after the call's title: the command itself.
    const call = r.of("tool.call").find((c) => c.name === shell.name || `${c.name} ${JSON.stringify(c.input)}`.includes(FILE));
    expect(call, `the refused command is a tool.call (got ${r.of("tool.call").map((c) => c.name)})`).toBeDefined();
    const result = r.of("tool.result").filter((x) => x.id === call!.id);
    expect(result, "exactly one tool.result for the call").toHaveLength(1);
    expect(result[0]!.isError).toBe(true);
    const asked = r.of("permission.decision");
    if (cli.asksPermission) {
      expect(
        asked.map((d) => d.decision),
        "the agent asked, and od's policy denied",
      ).toContain("deny");
      expect(String(result[0]!.output)).toMatch(/denied/i);
    }
    expect(r.exitCode).toBe(0);
    expect(r.finished?.status).toBe("succeeded");
    // Some CLIs (Qwen Code, Kilo) end the turn when a permission is rejected, as when a user cancels;
    // the others tell the model and go on.
    const wentOn = turns(fx.stub).some((t) => t.hasToolResult);
    if (wentOn) expect(r.text).toContain(FINAL);
    const how = asked.length ? `asked, denied by ${asked[0]!.by}` : "refused by the CLI";
    const then = wentOn ? "the model was told" : "the CLI ended the turn";
    return `${call!.name} ${how}; ${then}: ${String(result[0]!.output).replace(/\s+/g, " ").slice(0, 50)}`;
  });
}
