// The live matrix for one CLI: every scenario od must get right against the real CLI, each a
// test registered through the lane's `scenario` wrapper (fresh HOME, work dir and stub per test).
import { expect } from "bun:test";
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { installDir, type LiveCli, liveEnv } from "./clis.ts";
import { checkRun, type Fixture, messageCount, turns } from "./lane.ts";
import type { Scenario } from "./model-stub.ts";
import { OD_TIMEOUT_S, runOd, startOd, waitFor } from "./od.ts";
import { descendants, ofRun, type ProcInfo, survivors } from "./procs.ts";
import { startPushyProxy } from "./pushy.ts";

/** Registers one CLI x scenario test; the body returns a note for the results table. */
export type ScenarioFn = (cli: LiveCli, name: string, initial: Scenario, body: (fx: Fixture) => Promise<string | void>) => void;
/** od run args every test shares: the fixture's work dir as --cwd, a safety timeout, and the mode of a CLI od offers in full mode only. */
const base = (fx: Fixture) => [
  "--agent",
  fx.cli.id,
  "--cwd",
  fx.work,
  "--timeout",
  String(OD_TIMEOUT_S),
  ...(fx.cli.mode ? ["--mode", fx.cli.mode] : []),
];
const od = (fx: Fixture, args: string[], prompt: string) => runOd([...base(fx), ...args, prompt], { env: fx.env, cwd: fx.work });

/** Every file under dir with its bytes. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }).map(String).sort()) {
    try {
      out[name] = readFileSync(join(dir, name), "base64");
    } catch {
      out[name] = "<dir>";
    }
  }
  return out;
}

export function matrix(cli: LiveCli, scenario: ScenarioFn): void {
  const hello = "Hello from the od live lane\n";

  scenario(cli, "chat", { kind: "chat", text: "OD_LIVE_CHAT_OK" }, async (fx) => {
    const r = await od(fx, [], "Say hi");
    checkRun(r);
    expect(r.of("error")).toEqual([]);
    expect(r.exitCode).toBe(0);
    // Resumable exactly when --resume takes the session back (the resume scenario).
    expect(r.finished).toMatchObject({ status: "succeeded", exitCode: 0, resumable: !cli.cannot?.resume || cli.resumesOnline === true });
    expect(r.text).toBe("OD_LIVE_CHAT_OK");
    if (cli.cannot?.["stream-chunks"]) expect(r.of("text.delta").length).toBeGreaterThan(0);
    else expect(r.of("text.delta").length, "the answer streams in several deltas").toBeGreaterThan(1);
    const session = r.of("session")[0];
    expect(session?.sessionId).toBeTruthy();
    expect(r.finished?.sessionId).toBe(session!.sessionId);
    if (!cli.cannot?.usage) expect(r.of("usage").length).toBeGreaterThan(0);
    expect(JSON.stringify(turns(fx.stub).at(-1)?.body), "the prompt reached the model").toContain("Say hi");
    return `${r.of("text.delta").length} deltas, ${r.of("usage").length} usage, ${r.ms} ms`;
  });

  scenario(cli, "tool-edit", { kind: "tool-write", file: "hello.txt", content: hello, finalText: "OD_LIVE_FILE_WRITTEN" }, async (fx) => {
    const r = await od(fx, cli.mode ? [] : ["--mode", "edit"], "Create hello.txt with a greeting");
    checkRun(r);
    expect(r.of("error")).toEqual([]);
    expect(r.exitCode).toBe(0);
    expect(r.finished?.status).toBe("succeeded");
    expect(readFileSync(join(fx.work, "hello.txt"), "utf8")).toBe(hello);
    const call = r.of("tool.call").find((c) => c.name === cli.writeTool || /writ|edit|creat/i.test(c.name)); // Copilot over ACP titles it "Creating <path>"
    expect(call, "a write tool.call").toBeDefined();
    const result = r.of("tool.result").find((x) => x.id === call!.id);
    expect(result?.isError).toBe(false);
    expect(r.text).toContain("OD_LIVE_FILE_WRITTEN");
    expect(turns(fx.stub).some((t) => t.hasToolResult)).toBe(true);
    if (cli.asksPermission) {
      expect(r.of("permission.request").length, "the agent asked before editing").toBeGreaterThan(0);
      expect(r.of("permission.decision")[0]).toMatchObject({ decision: "allow", by: "policy" });
      return `${call!.name} ${call!.id}; permission asked, allowed by policy`;
    }
    return `${call!.name} ${call!.id}`;
  });

  scenario(cli, "read-only", { kind: "tool-write", file: "hello.txt", content: hello, finalText: "OD_LIVE_FILE_WRITTEN" }, async (fx) => {
    const r = await od(fx, ["--mode", "read-only"], "Create hello.txt with a greeting");
    checkRun(r);
    expect(r.exitCode).toBe(0);
    expect(r.finished?.status).toBe("succeeded");
    expect(readdirSync(fx.work), "nothing may be written in read-only mode").toEqual([]);
    // If the model was offered a write tool and called it, the CLI must have refused it.
    for (const call of r.of("tool.call")) expect(r.of("tool.result").find((x) => x.id === call.id)?.isError).toBe(true);
    const offered = turns(fx.stub).flatMap((t) => t.toolNames);
    const writeOffered = offered.some((n) => /^(write|edit|bash|write_file|create)$/i.test(n));
    return writeOffered
      ? `write tool offered; ${r.of("tool.call").length} call(s) refused`
      : `no write tool offered (${[...new Set(offered)].join(",")})`;
  });

  scenario(
    cli,
    "read-only-pushy",
    { kind: "tool-write", file: "hello.txt", content: hello, finalText: "OD_LIVE_NOT_WRITTEN" },
    async (fx) => {
      // The model asks for the CLI's write tool even though read-only mode did not offer it.
      const proxy = startPushyProxy(fx.stub.url, cli.writeTool);
      try {
        const env = liveEnv(cli, { binDir: fx.binDir, home: fx.home, stubUrl: proxy.url });
        const r = await runOd([...base(fx), "--mode", "read-only", "Create hello.txt with a greeting"], { env, cwd: fx.work });
        checkRun(r);
        expect(proxy.injected()).toBeGreaterThan(0);
        expect(
          turns(fx.stub).map((t) => t.answered),
          "the model asked to write",
        ).toContain(`tool:${cli.writeTool}`);
        expect(readdirSync(fx.work), "nothing may be written in read-only mode").toEqual([]);
        const calls = r.of("tool.call");
        const denied = r.of("permission.decision").filter((d) => d.decision === "deny");
        expect(calls.length + denied.length, "the write request shows as a tool.call, or as a permission od denied").toBeGreaterThan(0);
        for (const call of calls) expect(r.of("tool.result").find((x) => x.id === call.id)?.isError).toBe(true);
        expect(r.exitCode).toBe(0);
        expect(r.finished?.status).toBe("succeeded");
        if (!calls.length) return `permission denied by policy: ${denied[0]!.reason}`;
        const refusal = r.of("tool.result").find((x) => x.id === calls[0]!.id)?.output;
        return `${calls[0]!.name} refused: ${String(refusal).replace(/\s+/g, " ").slice(0, 70)}`;
      } finally {
        await proxy.stop();
      }
    },
  );

  // The kernel alone: the CLI's own flags are those of an edit run (OD_TEST_CLI_MODE, honoured only where
  // the kernel holds the run), so the CLI offers and runs its write tool, and the kernel must refuse it.
  scenario(
    cli,
    "read-only-kernel",
    { kind: "tool-write", file: "hello.txt", content: hello, finalText: "OD_LIVE_NOT_WRITTEN" },
    async (fx) => {
      const env = { ...fx.env, OD_TEST_CLI_MODE: "edit" };
      const before = snapshot(fx.home);
      const r = await runOd([...base(fx), "--mode", "read-only", "Create hello.txt with a greeting"], { env, cwd: fx.work });
      checkRun(r);
      expect(r.of("run.started")[0]?.sandbox?.kind, "the kernel holds the run").toBe("landlock");
      expect(
        turns(fx.stub).map((t) => t.answered),
        "the model asked to write",
      ).toContain(`tool:${cli.writeTool}`);
      expect(readdirSync(fx.work), "nothing may be written in read-only mode").toEqual([]);
      const leaked = Object.keys(snapshot(fx.home)).filter((f) => !(f in before) && /hello\.txt$/.test(f));
      expect(leaked, "nor anywhere else in HOME").toEqual([]);
      const calls = r.of("tool.call");
      const refusal = calls.map((c) => r.of("tool.result").find((x) => x.id === c.id)?.output).find(Boolean);
      return `${calls.length} call(s); ${String(refusal ?? "no result shown")
        .replace(/\s+/g, " ")
        .slice(0, 80)}`;
    },
  );

  scenario(cli, "resume", { kind: "chat", text: "OD_LIVE_FIRST_TURN" }, async (fx) => {
    const first = await od(fx, [], "Remember the word pineapple");
    checkRun(first);
    expect(first.exitCode).toBe(0);
    const sessionId = first.finished?.sessionId;
    expect(sessionId, "the first run reports a session id").toBeTruthy();
    expect(first.finished?.resumable).toBe(true);
    const before = turns(fx.stub).at(-1)!;

    fx.stub.script({ kind: "chat", text: "OD_LIVE_SECOND_TURN" });
    const second = await od(fx, ["--resume", sessionId!], "What was the word?");
    checkRun(second);
    expect(second.of("error")).toEqual([]);
    expect(second.exitCode).toBe(0);
    expect(second.text).toBe("OD_LIVE_SECOND_TURN");
    expect(second.finished?.sessionId).toBe(sessionId);
    const after = turns(fx.stub).at(-1)!;
    expect(messageCount(after)).toBeGreaterThan(messageCount(before));
    const history = JSON.stringify(after.body);
    expect(history).toContain("pineapple");
    expect(history).toContain("OD_LIVE_FIRST_TURN");
    return `session ${sessionId!.slice(0, 8)}…, messages ${messageCount(before)} -> ${messageCount(after)}`;
  });

  scenario(cli, "model-effort", { kind: "chat", text: "OD_LIVE_MODEL_OK" }, async (fx) => {
    const { model, effort, expectModel, expectEffort } = cli.choice;
    const r = await od(fx, ["--model", model, ...(effort ? ["--effort", effort] : [])], "Say hi");
    checkRun(r);
    expect(r.exitCode).toBe(0);
    expect(r.of("run.started")[0]).toMatchObject(effort ? { model, effort } : { model });
    const turn = turns(fx.stub).at(-1);
    expect(turn?.model).toMatch(expectModel);
    if (effort) expect(turn?.effort).toBe(expectEffort);
    return `stub saw model ${turn?.model}, effort ${turn?.effort}`;
  });

  scenario(cli, "effort-invalid", { kind: "chat" }, async (fx) => {
    const r = await od(fx, ["--effort", "ludicrous"], "Say hi");
    checkRun(r);
    expect(r.exitCode).toBe(2);
    expect(r.finished?.status).toBe("failed");
    expect(r.of("error")[0]?.code).toBe("MODEL_NOT_AVAILABLE");
    expect(r.of("run.started"), "refused before spawning").toEqual([]);
    expect(fx.stub.requests).toHaveLength(0);
    return `refused: ${r.of("error")[0]?.hint ?? ""}`;
  });

  scenario(cli, "cancel", { kind: "stall" }, async (fx) => {
    const running = startOd([...base(fx), "Tell me a long story"], { env: fx.env, cwd: fx.work });
    await waitFor(() => fx.stub.requests.some((q) => q.answered === "stall"), "the stub to receive the stalled request");
    const tree: ProcInfo[] = descendants(running.pid);
    // pi renames its process to "pi", so recognise the run's processes by HOME/cwd as well as by path.
    const cliProcs = tree.filter((p) => p.cmdline.includes(installDir(cli)) || ofRun(p.pid, fx));
    expect(cliProcs.length, `the CLI runs under od: ${tree.map((p) => p.cmdline).join(" | ")}`).toBeGreaterThan(0);
    const t0 = performance.now();
    running.signal("SIGINT");
    const r = await running.done;
    const cancelMs = Math.round(performance.now() - t0);
    checkRun(r);
    expect(r.exitCode).toBe(130);
    expect(r.finished?.status).toBe("cancelled");
    const left = survivors(tree, { home: fx.home, work: fx.work });
    expect(
      left.map((p) => `${p.pid} ${p.cmdline}`),
      "no process of the run may survive",
    ).toEqual([]);
    return `${tree.length} process(es) under od, all gone; cancel took ${cancelMs} ms`;
  });

  scenario(cli, "auth-failure", { kind: "auth-error" }, async (fx) => {
    expect(fx.env.CLAUDE_CODE_MAX_RETRIES, "retries must not be capped by the lane").toBeUndefined();
    const r = await od(fx, [], "Say hi");
    checkRun(r);
    const error = r.of("error")[0];
    expect(error?.code).toBe("AGENT_AUTH_REQUIRED");
    expect(error?.hint).toMatch(cli.loginHint);
    expect(r.exitCode).toBe(4);
    expect(r.finished?.status).toBe("failed");
    expect(r.ms, "od stops a rejected login at once, not after the CLI's retries").toBeLessThan(cli.authReportedWithinMs ?? 15_000);
    expect(survivors([], { home: fx.home, work: fx.work })).toEqual([]);
    return `${r.ms} ms, ${turns(fx.stub).length} request(s); hint: ${error?.hint}`;
  });

  scenario(cli, "unknown-record", { kind: "chat", text: "OD_LIVE_RAW_OK" }, async (fx) => {
    // A wrapper named like the CLI, first on PATH: one unknown record, then the real CLI.
    const wrapDir = join(fx.home, "wrap-bin");
    mkdirSync(wrapDir);
    const wrapper = join(wrapDir, cli.bin);
    const unknown = '{"type":"od_live_unknown","x":1}';
    writeFileSync(wrapper, `#!/bin/sh\nprintf '%s\\n' '${unknown}'\nexec '${join(fx.binDir, cli.bin)}' "$@"\n`);
    chmodSync(wrapper, 0o755);
    const env = { ...fx.env, PATH: `${wrapDir}:${fx.env.PATH}` };
    const r = await runOd([...base(fx), "Say hi"], { env, cwd: fx.work });
    checkRun(r);
    expect(r.of("run.started")[0]?.bin).toBe(wrapper);
    const raw = r.of("raw").filter((e) => e.line.includes("od_live_unknown"));
    expect(raw).toHaveLength(1);
    expect(raw[0]!.stream).toBe("stdout");
    expect(r.exitCode).toBe(0);
    expect(r.finished?.status).toBe("succeeded");
    expect(r.text).toBe("OD_LIVE_RAW_OK");
    return "raw kept, answer intact";
  });

  scenario(cli, "skill", { kind: "chat", text: "OD_LIVE_SKILL_OK" }, async (fx) => {
    // The bundled commit-message skill, by the adapter's own strategy (native, file or prompt):
    // the model must see it, and the working directory must be exactly as it was afterwards.
    writeFileSync(join(fx.work, "notes.txt"), "the user's own file\n");
    const before = snapshot(fx.work);
    const r = await od(fx, ["--skill", "commit-message"], "Write the commit message");
    checkRun(r);
    expect(r.exitCode).toBe(0);
    const seen = JSON.stringify(turns(fx.stub).map((t) => t.body));
    const marks = ["Write a clear, honest commit message for the staged changes.", "imperative mood"];
    expect(
      marks.some((m) => seen.includes(m)),
      "the model received the skill",
    ).toBe(true);
    expect(snapshot(fx.work), "the working directory is unchanged").toEqual(before);
    return r.of("status").find((e) => e.label === "skill")?.detail ?? "skill in the prompt";
  });

  scenario(cli, "thinking", { kind: "thinking", thinking: "Let me think it over.", text: "OD_LIVE_THOUGHT_OK" }, async (fx) => {
    const r = await od(fx, [], "Think, then answer");
    checkRun(r);
    expect(r.exitCode).toBe(0);
    expect(
      r
        .of("thinking.delta")
        .map((e) => e.text)
        .join(""),
    ).toBe("Let me think it over.");
    expect(r.text).toBe("OD_LIVE_THOUGHT_OK");
    return `${r.of("thinking.delta").length} thinking deltas`;
  });
}
