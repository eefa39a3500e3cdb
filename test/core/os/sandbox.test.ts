import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRegistry } from "../../../src/core/agents/registry.ts";
import { sandboxSupport } from "../../../src/core/os/sandbox/choose.ts";
import { defineAdapter } from "../../../src/plugin.ts";
import { collect, finished, installFake, ofType, tmpdir } from "../../helpers.ts";
import { fakeAdapter } from "../../support/fake-adapter.ts";
import { runAgent } from "../../support/run.ts";

/**
 * The kernel holds the mode, whatever the CLI does with its own flags: a fake CLI that ignores
 * them and writes with the shell (`sh -c 'printf … > …'`) writes only where its mode allows.
 */
const support = sandboxSupport();
const held = support.kind === "landlock" && support.protect === true;

/** The fake as a CLI with state of its own: `~/.fakecli/`. */
const stateful = defineAdapter({ ...fakeAdapter, state: [".fakecli/"] });
const registry = createRegistry([stateful]);

/** A user's machine: a home, a repository to work in (with its .git), a folder beside it. */
async function scene(mode: "read-only" | "edit" | "full", env: Record<string, string> = {}) {
  await using fakeDir = tmpdir(); // the fake's own script and record: allowed, as in every test
  await using place = tmpdir();
  const home = join(place.path, "home");
  const work = join(place.path, "work");
  const outside = join(place.path, "outside");
  for (const dir of [home, work, outside, join(work, ".git")]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(work, ".git", "config"), "[core]\n\tbare = false\n");
  const writes = {
    cwd: join(work, "in-cwd.txt"),
    gitConfig: join(work, ".git", "config"),
    gitHook: join(work, ".git", "hooks-post-checkout"),
    outside: join(outside, "leak.txt"),
    home: join(home, "leak.txt"),
    state: join(home, ".fakecli", "session.json"),
    tmp: "$TMPDIR/scratch.txt",
  };
  const script = [
    ...Object.values(writes).map((path) => ({ sh: `mkdir -p "$(dirname "${path}")"; printf agent >> "${path}"` })),
    { sh: 'printf "%s" "$TMPDIR" > "$FAKE_RECORD.tmpdir"' },
    { read: "all" },
    { stdout: { t: "text", v: "done" } },
  ];
  const fake = installFake(fakeDir.path, "fake-agent", script);
  const events = await collect(
    runAgent({ agent: "fake", prompt: "write everywhere", cwd: work, mode }, { registry, env: { ...fake.env, HOME: home, ...env } }),
  );
  const wrote = (path: string) => existsSync(path) && readFileSync(path, "utf8").includes("agent");
  const tmpUsed = readFileSync(join(fakeDir.path, "fake-agent.record.json.tmpdir"), "utf8");
  return {
    events,
    started: ofType(events, "run.started")[0]!,
    wrote: {
      cwd: wrote(writes.cwd),
      gitConfig: wrote(writes.gitConfig),
      gitHook: existsSync(writes.gitHook),
      outside: wrote(writes.outside),
      home: wrote(writes.home),
      state: wrote(writes.state),
    },
    tmpUsed,
    tmpLeft: tmpUsed !== "" && existsSync(tmpUsed),
    sh: fake.recorded() as unknown as { sh: Array<{ code: number; stderr: string }> },
    argv: fake.recorded().argv,
  };
}

describe.skipIf(!held)(`the kernel holds the mode (${support.kind}${support.reason ? `: ${support.reason}` : ""})`, () => {
  test("read-only: nothing is written but the CLI's own state and its private temp folder", async () => {
    const s = await scene("read-only");
    expect(s.started.sandbox).toMatchObject({ kind: "landlock" });
    expect(s.wrote).toEqual({ cwd: false, gitConfig: false, gitHook: false, outside: false, home: false, state: true });
    // The refusals are the agent's to see: its shell said so, and it went on.
    expect(s.sh.sh.filter((r) => r.code !== 0).map((r) => r.stderr)).toEqual(
      Array.from({ length: 5 }, () => expect.stringContaining("Permission denied")),
    );
    expect(s.tmpUsed).toMatch(/od-run-/);
    expect(s.tmpLeft).toBe(false); // removed when the agent ended
    expect(finished(s.events).status).toBe("succeeded");
  });

  test("edit: the working directory, never its .git, never a folder outside", async () => {
    const s = await scene("edit");
    expect(s.wrote).toEqual({ cwd: true, gitConfig: false, gitHook: false, outside: false, home: false, state: true });
    expect(s.started.sandbox?.readOnly).toEqual([expect.stringMatching(/work\/\.git$/)]);
  });

  test("full: not sandboxed, as asked", async () => {
    const s = await scene("full");
    expect(s.started.sandbox).toEqual({ kind: "none" });
    expect(s.wrote).toEqual({ cwd: true, gitConfig: true, gitHook: true, outside: true, home: true, state: true });
  });

  test("OD_TEST_CLI_MODE=full: the CLI's flags are a full run's, and the kernel alone still holds read-only", async () => {
    const s = await scene("read-only", { OD_TEST_CLI_MODE: "full" });
    expect(s.argv).toEqual(["--mode", "full"]);
    expect(s.wrote).toEqual({ cwd: false, gitConfig: false, gitHook: false, outside: false, home: false, state: true });
  });

  test("OD_TEST_CLI_MODE is refused where the kernel does not hold the run", async () => {
    await using tmp = tmpdir();
    const env = { HOME: tmp.path, OD_HOME: join(tmp.path, ".od"), PATH: "/usr/bin:/bin", OD_SANDBOX: "off", OD_TEST_CLI_MODE: "full" };
    const events = await collect(runAgent({ agent: "fake", prompt: "x", cwd: tmp.path, mode: "read-only" }, { registry, env }));
    expect(ofType(events, "error")[0]).toMatchObject({ code: "SANDBOX_UNAVAILABLE" });
    expect(ofType(events, "run.started")).toEqual([]);
  });

  test("a working directory moved at launch (resolveCwd, od mcp) is the one the sandbox lets the agent write", async () => {
    await using fakeDir = tmpdir();
    await using place = tmpdir();
    const planned = join(place.path, "planned");
    const real = join(place.path, "real");
    mkdirSync(planned);
    mkdirSync(real);
    const fake = installFake(fakeDir.path, "fake-agent", [
      { sh: "printf x > here.txt" },
      { read: "all" },
      { stdout: { t: "text", v: "ok" } },
    ]);
    const events = await collect(
      runAgent({ agent: "fake", prompt: "x", cwd: planned, mode: "edit" }, { registry, env: fake.env, resolveCwd: () => real }),
    );
    expect(ofType(events, "run.started")[0]?.sandbox?.writable?.[0]).toBe(real);
    expect(existsSync(join(real, "here.txt"))).toBe(true);
  });

  test("--sandbox off (OD_SANDBOX=off): only the CLI's flags hold the mode, and the header says so", async () => {
    const s = await scene("read-only", { OD_SANDBOX: "off" });
    expect(s.started.sandbox).toMatchObject({ kind: "none", note: expect.stringContaining("--sandbox off") });
    expect(s.wrote.outside).toBe(true);
  });
});
