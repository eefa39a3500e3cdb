/** `od mcp` compiled, on stdio, driven by the MCP SDK's own client, with the fake agent standing in for Claude Code. */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { alive, FIXTURES, installFake, tmpdir } from "../helpers.ts";
import { call, connectStdio, outcomeOf, runIdFrom } from "./support.ts";

const SESSION = "0c78f880-8069-4c0c-86d1-b71bd370441c"; // the session id in claude/tool.jsonl

/** A git repository with one commit, where the agent works. */
function repo(dir: string): string {
  const work = join(dir, "work");
  mkdirSync(work);
  const git = (...args: string[]) => Bun.spawnSync(["git", ...args], { cwd: work });
  git("init", "-q");
  writeFileSync(join(work, "README.md"), "hello\n");
  git("add", "README.md");
  git("-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", "commit", "-qm", "init");
  return work;
}

/** Waits (bounded) for a condition that follows from an event we cannot observe directly, such as a process ending. */
async function until(what: string, ok: () => boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}

describe("od mcp (stdio, compiled)", () => {
  test("lists its tools; list_agents shows the installed agents with the modes this server allows", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "claude", [{ raw: "2.1.0 (Claude Code)\n" }]);
    await using od = await connectStdio([], fake.env, tmp.path);
    const { tools } = await od.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["cancel_run", "list_agents", "run_agent"]);
    const runAgent = tools.find((t) => t.name === "run_agent")!;
    expect(runAgent.inputSchema.required).toEqual(["agent", "prompt"]);
    expect(Object.keys(runAgent.inputSchema.properties ?? {})).toEqual(["agent", "prompt", "cwd", "mode", "model", "effort", "resume"]);
    const { result } = await call(od.client, "list_agents", {});
    const listed = result.structuredContent as { agents: { id: string; modes: string[] }[]; maxMode: string; roots: string[] };
    expect(listed.maxMode).toBe("read-only");
    expect(listed.agents.map((a) => a.id)).toEqual(["claude"]); // only what is installed
    expect(listed.agents[0]!.modes).toEqual(["read-only"]); // within the server's maximum
    expect(od.stderr()).toContain("od mcp: on stdio");
  });

  test("run_agent: the final text, files changed with the diff, the session id, and the streamed text as progress", async () => {
    await using tmp = tmpdir();
    const work = repo(tmp.path);
    const fake = installFake(tmp.path, "claude", [{ read: "all" }, { touch: "made.txt" }, { replay: join(FIXTURES, "claude/tool.jsonl") }]);
    await using od = await connectStdio(["--max-mode", "edit", "--root", work], fake.env, tmp.path);
    const { result, progress, texts } = await call(od.client, "run_agent", { agent: "claude", prompt: "create hello.txt", mode: "edit" });
    const out = outcomeOf(result);
    expect(result.isError).toBe(false);
    expect(out).toMatchObject({ status: "succeeded", text: "HELLO_WRITTEN_OK", sessionId: SESSION, resumable: true, files: ["made.txt"] });
    expect(out.diff).toContain("+++ b/made.txt");
    expect(texts[0]).toBe("HELLO_WRITTEN_OK");
    expect(texts[1]).toContain(`session: ${SESSION}`);
    expect(texts[1]).toContain("files changed: made.txt");
    // The runId first, then the text as it streamed (and the tool call), in order.
    expect(runIdFrom(progress[0]!)).toBe(out.runId);
    expect(progress.map((p) => p.progress)).toEqual(progress.map((_, i) => i + 1));
    expect(
      progress
        .slice(1)
        .map((p) => p.message)
        .join(""),
    ).toContain("HELLO_WRITTEN_OK");
    // The agent ran in the root (the default cwd), in edit mode, with the prompt on stdin.
    const seen = fake.recorded();
    expect(seen.cwd).toBe(work);
    expect(seen.stdin).toEqual(["create hello.txt"]);
    expect(seen.argv.join(" ")).toContain("--permission-mode acceptEdits");
    // Kept in od's history like `od run`'s runs.
    const stored = JSON.parse(readFileSync(join(fake.env.OD_HOME!, "runs", out.runId, "request.json"), "utf8"));
    expect(stored).toMatchObject({ agent: "claude", mode: "edit", origin: "mcp" });
  });

  test("read-only by default: the agent gets the CLI's read-only flags, and a wider mode than the maximum is refused", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "claude", [{ read: "all" }, { replay: join(FIXTURES, "claude/plain.jsonl") }]);
    await using od = await connectStdio(["--max-mode", "edit"], fake.env, tmp.path);
    const ro = await call(od.client, "run_agent", { agent: "claude", prompt: "look around" });
    expect(outcomeOf(ro.result).status).toBe("succeeded");
    const argv = fake.recorded().argv;
    expect(argv.slice(argv.indexOf("--permission-mode"), argv.indexOf("--permission-mode") + 2)).toEqual(["--permission-mode", "plan"]);
    expect(argv[argv.indexOf("--disallowedTools") + 1]).toContain("Write");
    expect(argv.join(" ")).not.toMatch(/acceptEdits|bypassPermissions|dangerously/);

    writeFileSync(fake.env.FAKE_RECORD!, "{}"); // forget that run: the refused one must not start the agent
    const full = await call(od.client, "run_agent", { agent: "claude", prompt: "rm -rf", mode: "full" });
    expect(full.result.isError).toBe(true);
    expect(full.texts[0]).toMatch(/^od: mode "full" is above this server's maximum, "edit" \[FORBIDDEN\]\nhint: .*--max-mode full/);
    expect(fake.recorded()).toEqual({} as never);
  });

  test("a cwd outside every root is refused, through a symlink too; an unknown or missing agent is named", async () => {
    await using tmp = tmpdir();
    const root = join(tmp.path, "root");
    const outside = join(tmp.path, "outside");
    mkdirSync(root);
    mkdirSync(outside);
    symlinkSync(outside, join(root, "escape"));
    const fake = installFake(tmp.path, "claude", [{ exit: 0 }]);
    await using od = await connectStdio(["--root", root], fake.env, tmp.path);
    for (const cwd of [outside, join(root, "escape"), join(root, "..")]) {
      const { result, texts } = await call(od.client, "run_agent", { agent: "claude", prompt: "hi", cwd });
      expect(result.isError).toBe(true);
      expect(texts[0]).toContain("is outside this server's roots [FORBIDDEN]");
      expect((result.structuredContent as { error: { code: string } }).error.code).toBe("FORBIDDEN");
    }
    const unknown = await call(od.client, "run_agent", { agent: "nope", prompt: "hi" });
    expect(unknown.texts[0]).toContain('No agent named "nope" [AGENT_UNKNOWN]');
    expect(existsSync(fake.env.FAKE_RECORD!)).toBe(false); // the agent never ran
    // A run refused before it started says why with od's code and hint (codex is not installed here), and is no run.
    const missing = await call(od.client, "run_agent", { agent: "codex", prompt: "hi" });
    expect(missing.result.isError).toBe(true);
    expect(missing.texts[0]).toMatch(/^od: Codex is not installed.* \[AGENT_NOT_FOUND\]\nhint: /);
    expect(outcomeOf(missing.result).error?.code).toBe("AGENT_NOT_FOUND");
  });

  test("cancel_run ends a hanging run: run_agent answers cancelled, the agent is gone", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "claude", [{ read: "all" }, { hang: true }]);
    await using od = await connectStdio(["--root", repo(tmp.path)], fake.env, tmp.path);
    let cancelled: Promise<unknown> | undefined;
    const run = call(od.client, "run_agent", { agent: "claude", prompt: "wait" }, (p) => {
      const runId = runIdFrom(p);
      if (runId)
        cancelled = until("the agent to start", () => existsSync(fake.env.FAKE_RECORD!)).then(() =>
          call(od.client, "cancel_run", { runId }),
        );
    });
    const { result, texts } = await run;
    expect(result.isError).toBe(true);
    expect(outcomeOf(result).status).toBe("cancelled");
    expect(texts).toHaveLength(1); // no text from the agent: the summary alone
    expect(texts[0]).toMatch(/^od run \S+: cancelled in [\d.]+ s\nfiles changed: none$/);
    const cancel = (await cancelled) as Awaited<ReturnType<typeof call>>;
    expect(cancel.texts[0]).toContain("cancelling run");
    const pid = (JSON.parse(readFileSync(fake.env.FAKE_RECORD!, "utf8")) as { pid: number }).pid;
    expect(alive(pid)).toBe(false);
    // The run is over: cancelling it again finds nothing.
    const again = await call(od.client, "cancel_run", { runId: outcomeOf(result).runId });
    expect(again.texts[0]).toContain("[RUN_NOT_FOUND]");
  });

  test("the client going away (stdin closed) cancels a live run and od mcp exits", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "claude", [{ read: "all" }, { hang: true }]);
    const od = await connectStdio([], fake.env, tmp.path);
    const started = new Promise<void>((resolve) => {
      call(od.client, "run_agent", { agent: "claude", prompt: "wait" }, (p) => runIdFrom(p) && resolve()).catch(() => {});
    });
    await started;
    await until("the agent to start", () => existsSync(fake.env.FAKE_RECORD!));
    const pid = (JSON.parse(readFileSync(fake.env.FAKE_RECORD!, "utf8")) as { pid: number }).pid;
    const odPid = od.transport.pid!;
    await od.client.close(); // ends od's stdin
    await until("the agent to stop", () => !alive(pid));
    await until("od mcp to exit", () => !alive(odPid));
  });
});
