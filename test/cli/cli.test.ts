/** The compiled binary, end to end, with the fake agent standing in for the real CLIs. */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SERVE_HEAP_BUDGET } from "../../src/cli/heap-budget.ts";
import { repeated } from "../../src/cli/run.ts";
import { OdEvent } from "../../src/core/contract/events.ts";
import { VERSION } from "../../src/core/os/version.ts";
import { alive, DIST_OD, FIXTURES, installFake, ROOT, tmpdir } from "../helpers.ts";

function od(args: string[], env: Record<string, string>, stdin?: string) {
  const p = Bun.spawnSync([DIST_OD, ...args], {
    env: { NO_COLOR: "1", ...env },
    stdin: stdin === undefined ? "ignore" : new Blob([stdin]),
  });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

const jsonLines = (out: string) =>
  out
    .trim()
    .split("\n")
    .map((l) => OdEvent.parse(JSON.parse(l)));

describe("od (compiled)", () => {
  test("--version, --help, and a bad subcommand", () => {
    // The version first (scripts take the first word), then where this od came from: here a clone's build.
    expect(od(["--version"], {}).out).toBe(`${VERSION} (from source: ${ROOT})\n`);
    const help = od(["--help"], {});
    expect(help.code).toBe(0);
    for (const cmd of ["run", "agents", "plugins"]) expect(help.out).toContain(cmd);
    const runHelp = od(["run", "--help"], {});
    for (const flag of ["--agent", "--mode", "--json", "--dry-run", "--resume", "--timeout"]) expect(runHelp.out).toContain(flag);
    // Usage mistakes are exit 2 with one line (and a hint) on stderr, and nothing on stdout.
    expect(od(["run", "--agent", "claude", "--dryRun", "--no-json", "hi"], { HOME: "/nonexistent" }).code).toBe(0); // citty's own spellings stay known
    for (const args of [["bogus"], ["run", "--mode", "bad", "--json", "hi"], ["run", "--modle", "opus", "--dry-run", "hi"], ["models"]]) {
      const r = od(args, { HOME: "/nonexistent" });
      expect({ args, code: r.code, out: r.out }).toEqual({ args, code: 2, out: "" });
      expect(r.err).toMatch(/^od: .+ \[INVALID_REQUEST\]\nhint: (Did you mean \S+\? )?See `od .*--help`\.\n/);
    }
  });

  test("run prints the assistant's text on stdout and the rest on stderr", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "claude", [{ read: "all" }, { replay: join(FIXTURES, "claude/tool.jsonl") }]);
    const r = od(["run", "--agent", "claude", "--cwd", tmp.path, "create hello.txt"], fake.env);
    expect(r.code).toBe(0);
    expect(r.out).toBe("HELLO_WRITTEN_OK\n");
    // The tool call in words, and one line for its result (the fixture's path is its own machine's).
    expect(r.err).toMatch(/^✎ Write \S*hello\.txt\n✓ wrote \S*hello\.txt$/m);
    expect(r.err).toContain("succeeded");
    expect(r.err).toContain("resume with --resume 0c78f880-8069-4c0c-86d1-b71bd370441c");
    expect(fake.recorded().stdin).toEqual(["create hello.txt"]);
  });

  test("--json prints only valid events, one per line, ending with run.finished", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "pi", [{ replay: join(FIXTURES, "pi/tool.jsonl") }]);
    const r = od(["run", "--agent", "pi", "--json", "--cwd", tmp.path, "go"], fake.env);
    const events = jsonLines(r.out);
    expect(events.at(-1)).toMatchObject({ type: "run.finished", status: "succeeded" });
    expect(events.filter((e) => e.type === "run.finished")).toHaveLength(1);
    expect(events.map((e) => e.type)).toContain("tool.call");
    expect(r.code).toBe(0);
  });

  test("the prompt can come from stdin with -", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "claude", [{ read: "all" }, { replay: join(FIXTURES, "claude/plain.jsonl") }]);
    const r = od(["run", "--agent", "claude", "--cwd", tmp.path, "-"], fake.env, "a prompt\nfrom stdin");
    expect(r.code).toBe(0);
    expect(fake.recorded().stdin).toEqual(["a prompt\nfrom stdin"]);
  });

  test("--dry-run shows argv, env keys and stdin, and spawns nothing", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "claude", [{ exit: 9 }]);
    const r = od(
      ["run", "--agent", "claude", "--dry-run", "--json", "--mode", "read-only", "--model", "sonnet", "--cwd", tmp.path, "plan it"],
      fake.env,
    );
    const plan = JSON.parse(r.out);
    expect(plan.argv).toEqual([
      fake.exe,
      "-p",
      "--output-format",
      "stream-json",
      "--verbose",
      "--include-partial-messages",
      "--model",
      "sonnet",
      "--strict-mcp-config",
      "--settings",
      '{"disableAllHooks":true}',
      "--permission-mode",
      "plan",
      "--disallowedTools",
      "Write,Edit,MultiEdit,NotebookEdit,Bash,PowerShell",
    ]);
    expect(plan.stdin).toBe("plan it");
    expect(() => fake.recorded()).toThrow(); // never ran
    const pi = JSON.parse(od(["run", "--agent", "pi", "--dry-run", "--json", "--cwd", tmp.path, "hi"], { PATH: "/usr/bin:/bin" }).out);
    expect(pi).toMatchObject({ resolved: false, bin: "pi" });
    expect(pi.stdin.split("\n").map((l: string) => JSON.parse(l))).toEqual([
      { id: "od-state", type: "get_state" },
      { id: "od-prompt", type: "prompt", message: "hi" },
    ]);
    // The logger (loaded on its first line, not at start) still says it, on stderr, after the plan.
    const text = od(["run", "--agent", "pi", "--dry-run", "--cwd", tmp.path, "hi"], { PATH: "/usr/bin:/bin" });
    expect(text.out).toStartWith('argv:  ["pi",');
    expect(text.err).toBe("\n WARN  pi is not installed; the argv shows its bare name\n\n");
  });

  test("exit codes mean something: not installed 3, bad effort 2, not logged in 4, no prompt 2", async () => {
    await using tmp = tmpdir();
    const missing = od(["run", "--agent", "claude", "--cwd", tmp.path, "hi"], { PATH: "/usr/bin:/bin", HOME: tmp.path });
    expect(missing.code).toBe(3);
    expect(missing.err).toContain("npm install -g @anthropic-ai/claude-code");
    const fake = installFake(tmp.path, "claude", [{ read: "all" }, { replay: join(FIXTURES, "claude/not-logged-in.jsonl") }, { exit: 1 }]);
    expect(od(["run", "--agent", "claude", "--effort", "ultra", "--cwd", tmp.path, "hi"], fake.env).code).toBe(2);
    const auth = od(["run", "--agent", "claude", "--cwd", tmp.path, "hi"], fake.env);
    expect(auth.code).toBe(4);
    expect(auth.err).toContain("/login");
    expect(od(["run", "--agent", "claude", "--cwd", tmp.path], fake.env).code).toBe(2);
    expect(od(["run", "--agent", "nope", "--cwd", tmp.path, "hi"], fake.env).code).toBe(2);
  });

  test("Ctrl-C cancels: exit 130, cancelled, and no process of the run survives", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "claude", [
      { spawn: ["sleep", "1000"] },
      { replay: join(FIXTURES, "claude/plain.jsonl") },
      { hang: true },
    ]);
    const p = Bun.spawn([DIST_OD, "run", "--agent", "claude", "--json", "--cwd", tmp.path, "hi"], {
      env: fake.env,
      stdout: "pipe",
      stderr: "pipe",
    });
    const reader = p.stdout.getReader();
    let seen = "";
    while (!seen.includes("text.delta")) seen += new TextDecoder().decode((await reader.read()).value);
    p.kill("SIGINT");
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += new TextDecoder().decode(value);
    }
    expect(await p.exited).toBe(130);
    expect(jsonLines(seen).at(-1)).toMatchObject({ type: "run.finished", status: "cancelled" });
    for (const pid of fake.pids()) expect(alive(pid)).toBe(false);
  });
});

describe("od doctor", () => {
  test("--live sends one read-only prompt per installed agent and checks nothing was written", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "claude", [{ read: "all" }, { replay: join(FIXTURES, "claude/plain.jsonl") }]);
    const ok = od(["doctor", "--live", "--json"], fake.env);
    const report = JSON.parse(ok.out);
    expect(report.live).toEqual([expect.objectContaining({ agent: "claude", status: "succeeded", answer: "QUICK_CHAT_OK", written: [] })]);
    expect(fake.recorded().argv).toContain("plan"); // read-only
    expect(JSON.stringify(report)).not.toContain("ANTHROPIC_API_KEY=");

    // Only the live prompt writes; detection's probes (--version, auth status) must not.
    const writer = installFake(tmp.path, "claude", [
      { read: "all" },
      { ifStdin: "connectivity check", then: [{ touch: "oops.txt" }] },
      { replay: join(FIXTURES, "claude/plain.jsonl") },
    ]);
    // Where the kernel holds read-only, the write is refused: nothing is written, and the check says the agent failed.
    const held = od(["doctor", "--live"], writer.env);
    expect(held.code).toBe(1);
    expect(held.out).toContain("claude live check failed");
    expect(held.out).not.toContain("wrote oops.txt");
    // Without it (--sandbox off), the CLI's write is caught after the fact.
    const bare = { ...writer.env, OD_SANDBOX: "off" };
    const bad = od(["doctor", "--live"], bare);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain("claude wrote oops.txt during a read-only check");
    const badJson = od(["doctor", "--live", "--json"], bare);
    expect(badJson.code).toBe(1); // the same verdict as the text, for scripts
    expect(JSON.parse(badJson.out).ok).toBe(false);
  });

  test("Ctrl-C during --live cancels the checks: the agents' processes go, and the report still comes", async () => {
    await using tmp = tmpdir();
    // Detection's probes get the plain answer; the live prompt gets an agent that never answers.
    const fake = installFake(tmp.path, "claude", [
      { read: "all" },
      { ifStdin: "connectivity check", then: [{ spawn: ["sleep", "1000"] }, { hang: true }] },
      { replay: join(FIXTURES, "claude/plain.jsonl") },
    ]);
    const doctor = Bun.spawn([DIST_OD, "doctor", "--live"], { env: { NO_COLOR: "1", ...fake.env }, stdout: "pipe", stderr: "ignore" });
    while (!fake.pids().length) await Bun.sleep(20);
    doctor.kill("SIGINT");
    expect(await doctor.exited).toBe(130);
    expect(await new Response(doctor.stdout).text()).toContain("claude live check cancelled");
    expect(fake.pids().map(alive)).toEqual([false]);
  });

  test("an agent whose probe fails is listed broken, and says why", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "claude", [{ exit: 3 }]);
    const r = od(["agents", "--refresh"], fake.env);
    expect(r.out).toMatch(/claude +broken/);
    expect(r.err).toMatch(/^claude: .+/m);
  });
});

describe("od run: small mistakes, plainly (compiled)", () => {
  test("an empty prompt on stdin, a --max-turns that is no number, a --skills-dir that does not exist: exit 2 with what is wrong", async () => {
    await using tmp = tmpdir();
    const env = { PATH: "/usr/bin:/bin", HOME: tmp.path };
    const cases: Array<[string[], string, string?]> = [
      [["run", "--agent", "claude", "-"], "The prompt read from stdin is empty", ""],
      [["run", "--agent", "claude", "--max-turns", "abc", "x"], '--max-turns must be a whole number above 0, not "abc"'],
      [["skills", "--skills-dir", join(tmp.path, "nope")], "No such folder"],
    ];
    for (const [args, message, stdin] of cases) {
      const r = od(args, env, stdin);
      expect({ args, code: r.code, out: r.out }).toEqual({ args, code: 2, out: "" });
      expect(r.err).toContain(message);
    }
  });
});

describe("od skills (compiled)", () => {
  test("the bundled skills are embedded in the binary and --skill composes them into the invocation", async () => {
    await using tmp = tmpdir();
    const env = { PATH: "/usr/bin:/bin", HOME: tmp.path };
    const list = JSON.parse(od(["skills", "--json"], env).out);
    expect(list.skills.map((s: { name: string }) => s.name).sort()).toEqual(["code-review", "commit-message", "web-page"]);
    expect(list.skills.find((s: { name: string }) => s.name === "web-page").files).toContain("assets/template.html");
    const plan = JSON.parse(
      od(["run", "--agent", "claude", "--dry-run", "--json", "--skill", "code-review", "--cwd", tmp.path, "look at this"], env).out,
    );
    expect(plan.stdin).toBe('Use the skill "code-review" (.claude/skills/code-review) for this task.\n\n---\n\nlook at this');
    const pi = JSON.parse(
      od(["run", "--agent", "pi", "--dry-run", "--json", "--skill", "commit-message,code-review", "--cwd", tmp.path, "x"], env).out,
    );
    expect(pi.stdin).toContain(
      'Use the skills \\"commit-message\\" (.pi/skills/commit-message), \\"code-review\\" (.pi/skills/code-review)',
    );
    expect(readdirSync(tmp.path)).toEqual([]); // a dry run places nothing
  });
});

describe("od run interrupted (compiled)", () => {
  test("a second Ctrl-C leaves at once, and still takes the agent and the skill files it placed with it", async () => {
    await using tmp = tmpdir();
    const work = join(tmp.path, "work");
    mkdirSync(work);
    // An agent that ignores SIGINT and SIGTERM (the cancel ladder would take seconds), with a child of its own.
    const claude = installFake(tmp.path, "claude", [
      { ignore: "SIGINT" },
      { ignore: "SIGTERM" },
      { read: "all" },
      { spawn: ["sleep", "1000"] },
      { hang: true },
    ]);
    const od = Bun.spawn([DIST_OD, "run", "--agent", "claude", "--skill", "code-review", "--cwd", work, "review"], {
      env: { NO_COLOR: "1", ...claude.env },
      stdout: "ignore",
      stderr: "ignore",
    });
    while (!claude.pids().length) await Bun.sleep(20);
    expect(readdirSync(work)).toEqual([".claude"]); // the skill, placed for the agent
    od.kill("SIGINT");
    await Bun.sleep(200);
    od.kill("SIGINT");
    expect(await od.exited).toBe(130);
    expect(readdirSync(work)).toEqual([]);
    expect(claude.pids().map(alive)).toEqual([false]); // the agent's group went with od
  });
});

describe("od run with several agents, interrupted (compiled)", () => {
  test("Ctrl-C cancels every agent, and the exit code says cancelled (130)", async () => {
    await using tmp = tmpdir();
    const work = join(tmp.path, "work");
    mkdirSync(work);
    const claude = installFake(tmp.path, "claude", [{ read: "all" }, { spawn: ["sleep", "1000"] }, { hang: true }]);
    const pi = installFake(tmp.path, "pi", [{ spawn: ["sleep", "1000"] }, { hang: true }]);
    const od = Bun.spawn([DIST_OD, "run", "--agent", "claude,pi", "--cwd", work, "x"], {
      env: { NO_COLOR: "1", ...claude.env },
      stdout: "ignore",
      stderr: "ignore",
    });
    while (claude.pids().length + pi.pids().length < 2) await Bun.sleep(20);
    od.kill("SIGINT");
    expect(await od.exited).toBe(130);
    expect([...claude.pids(), ...pi.pids()].map(alive)).toEqual([false, false]);
  });
});

describe("od run with several agents (compiled)", () => {
  test("each in a private copy, streams labelled by agent, then a side-by-side table", async () => {
    await using tmp = tmpdir();
    const work = join(tmp.path, "work");
    Bun.spawnSync(["mkdir", work]);
    const claude = installFake(tmp.path, "claude", [
      { read: "all" },
      { touch: "from-claude.txt" },
      { replay: join(FIXTURES, "claude/plain.jsonl") },
    ]);
    installFake(tmp.path, "pi", [{ touch: "from-pi.txt" }, { replay: join(FIXTURES, "pi/plain.jsonl") }]);
    const r = od(["run", "--agent", "claude,pi", "--cwd", work, "hello"], claude.env);
    expect(r.code).toBe(0);
    expect(r.out).toContain("[claude] QUICK_CHAT_OK");
    expect(r.out).toMatch(/claude +succeeded .* from-claude\.txt/);
    expect(r.out).toMatch(/pi +succeeded .* from-pi\.txt/);
    expect(readdirSync(work)).toEqual([]); // the user's folder is untouched
  });

  test("--dry-run plans each agent and spawns none; what belongs to one agent is refused", async () => {
    await using tmp = tmpdir();
    const claude = installFake(tmp.path, "claude", [{ stdout: { t: "text", v: "ran" } }]);
    installFake(tmp.path, "pi", [{ stdout: { t: "text", v: "ran" } }]);
    const plans = od(["run", "--agent", "claude,pi", "--dry-run", "--json", "--cwd", tmp.path, "hello"], claude.env);
    expect(plans.code).toBe(0);
    expect(
      plans.out
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).agent),
    ).toEqual(["claude", "pi"]);
    expect(readdirSync(tmp.path).filter((f) => f.endsWith(".record.json"))).toEqual([]); // neither fake was started
    const text = od(["run", "--agent", "claude,pi", "--dry-run", "--cwd", tmp.path, "hello"], claude.env);
    expect(text.out).toMatch(/^\[claude\] argv: /m);
    expect(text.out).toMatch(/^\[pi\] argv: /m);
    const resume = od(["run", "--agent", "claude,pi", "--resume", "s-1", "--cwd", tmp.path, "hello"], claude.env);
    expect(resume.code).toBe(2);
    expect(resume.err).toContain("--resume applies to one agent");
    // Flags each agent takes on its own are checked for each, not dropped.
    expect(od(["run", "--agent", "claude,pi", "--max-turns", "3", "--cwd", tmp.path, "hello"], claude.env).err).toContain(
      "Claude Code takes no turn limit",
    );
  });

  test("an agent whose workspace cannot be made fails with git's reason, once, and the exit code says so", async () => {
    await using tmp = tmpdir();
    const repo = join(tmp.path, "repo");
    Bun.spawnSync([
      "sh",
      "-c",
      `mkdir ${repo} && cd ${repo} && git init -q && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m init && echo x > .git/worktrees`,
    ]);
    const claude = installFake(tmp.path, "claude", [{ read: "all" }, { replay: join(FIXTURES, "claude/plain.jsonl") }]);
    installFake(tmp.path, "pi", [{ replay: join(FIXTURES, "pi/plain.jsonl") }]);
    const r = od(["run", "--agent", "claude,pi", "--cwd", repo, "hello"], claude.env);
    expect(r.code).toBe(1);
    for (const agent of ["claude", "pi"]) {
      expect(r.err.match(new RegExp(`\\[${agent}\\] ✗ git worktree add .* failed`, "g"))).toHaveLength(1);
      expect(r.out).toMatch(new RegExp(`${agent} +failed`));
    }
  });
});

test("--allowed-tools reaches claude's own flag", async () => {
  await using tmp = tmpdir();
  const plan = JSON.parse(
    od(["run", "--agent", "claude", "--dry-run", "--json", "--allowed-tools", "Bash(git *),Edit", "--cwd", tmp.path, "x"], {
      PATH: "/usr/bin:/bin",
      HOME: tmp.path,
    }).out,
  );
  expect(plan.argv.slice(plan.argv.indexOf("--allowedTools"), plan.argv.indexOf("--allowedTools") + 2)).toEqual([
    "--allowedTools",
    "Bash(git *),Edit",
  ]);
});

describe.skipIf(process.platform !== "linux")("od serve (compiled)", () => {
  /** Starts `dist/od serve` (a fake claude first on PATH answers with the heap variable it sees), reads its environment from /proc, and runs one chat. */
  async function serve(env: Record<string, string>) {
    await using tmp = tmpdir();
    const bin = join(tmp.path, "bin");
    mkdirSync(bin);
    writeFileSync(
      join(bin, "claude"),
      `#!/bin/sh\ncat > /dev/null\nsed "s/QUICK/heap=\${BUN_JSC_forceRAMSize:-unset}:/g" "${join(FIXTURES, "claude/plain.jsonl")}"\n`,
      { mode: 0o755 },
    );
    const p = Bun.spawn([DIST_OD, "serve", "--port", "0"], {
      env: { PATH: `${bin}:/usr/bin:/bin`, HOME: tmp.path, OD_HOME: join(tmp.path, ".od"), ...env },
      stdout: "pipe",
      stderr: "ignore",
    });
    try {
      const reader = p.stdout.getReader();
      let out = "";
      while (!out.includes("\n")) out += new TextDecoder().decode((await reader.read()).value);
      const heap = readFileSync(`/proc/${p.pid}/environ`, "utf8")
        .split("\0")
        .find((kv) => kv.startsWith("BUN_JSC_forceRAMSize="))
        ?.split("=")[1];
      const [, url, token] = out.match(/(http:\/\/\S+?)\?token=(\S+)/)!;
      const chat = await fetch(new URL("api/chat", url), {
        method: "POST",
        headers: { "x-od-token": token!, "content-type": "application/json" },
        body: JSON.stringify({ agent: "claude", prompt: "hi", cwd: tmp.path }),
      });
      const agentSaw = /heap=(\w+)/.exec(await chat.text())?.[1];
      return { heap, agentSaw };
    } finally {
      p.kill();
      await p.exited;
    }
  }

  test("--open hands the URL to the system's opener; with none, the server still serves and says why", async () => {
    await using tmp = tmpdir();
    const withOpener = join(tmp.path, "bin");
    mkdirSync(withOpener);
    const opened = join(tmp.path, "opened.txt");
    writeFileSync(join(withOpener, "xdg-open"), `#!/bin/sh\necho "$1" > "${opened}"\n`, { mode: 0o755 });
    const start = async (path: string) => {
      const p = Bun.spawn([DIST_OD, "serve", "--port", "0", "--open"], {
        env: { PATH: path, HOME: tmp.path, OD_HOME: join(tmp.path, ".od") },
        stdout: "pipe",
        stderr: "pipe",
      });
      try {
        const reader = p.stdout.getReader();
        let out = "";
        while (!out.includes("\n")) out += new TextDecoder().decode((await reader.read()).value);
        const launch = out.match(/http:\/\/\S+/)![0];
        // The link sets the token cookie and redirects; with it, the page opens (a browser keeps the cookie, fetch does not).
        const opened = await fetch(launch, { redirect: "manual" });
        expect(opened.status).toBe(303);
        const cookie = opened.headers.get("set-cookie")!.split(";")[0]!;
        expect((await fetch(new URL("/", launch), { headers: { cookie } })).status).toBe(200);
        return { launch, p };
      } finally {
        p.kill();
      }
    };
    const a = await start(withOpener);
    await a.p.exited;
    for (let i = 0; i < 100 && !existsSync(opened); i++) await Bun.sleep(50);
    expect(readFileSync(opened, "utf8")).toBe(`${a.launch}\n`);
    const b = await start(join(tmp.path, "empty"));
    await b.p.exited;
    expect(await new Response(b.p.stderr).text()).toContain("could not open a browser");
  });

  test("runs under a heap budget: the same process (same pid) started again with the engine told its RAM, which its agents do not inherit; a budget the user set wins", async () => {
    expect(await serve({})).toEqual({ heap: String(SERVE_HEAP_BUDGET), agentSaw: "unset" });
    expect(await serve({ BUN_JSC_forceRAMSize: "1073741824" })).toEqual({ heap: "1073741824", agentSaw: "1073741824" });
  });
});

test("a repeatable option keeps every value (citty keeps only the last)", () => {
  expect(repeated(["--skill", "a", "-s", "b", "--skill=c", "--agent", "x", "--", "--skill", "d"], "skill", "s")).toEqual(["a", "b", "c"]);
});
