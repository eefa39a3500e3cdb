/**
 * run.result's files and diff for a run on a target, taken on the target with its git (a recording
 * stand-in for ssh runs each script here): what the agent wrote, not what was dirty before; the
 * target's index untouched; nothing of the repository's config run; outside git, a note.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRegistry } from "../../../src/core/agents/registry.ts";
import { collect, finished, installFake, ofType, tmpdir } from "../../helpers.ts";
import { fakeAdapter } from "../../support/fake-adapter.ts";
import { runAgent } from "../../support/run.ts";
import { recordingEngine } from "./engine.ts";

const registry = createRegistry([fakeAdapter]);
const WEIRD = 'it\'s $(x) "q".txt';

function sh(cwd: string, script: string): string {
  const p = Bun.spawnSync(["sh", "-c", script], { cwd, env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" } });
  if (p.exitCode !== 0) throw new Error(`${script}: ${p.stderr}`);
  return p.stdout.toString();
}

function repo(dir: string): void {
  mkdirSync(dir, { recursive: true });
  sh(
    dir,
    "git init -q && printf 'one\\n' > a.txt && printf 'two\\n' > c.txt && printf 'three\\n' > d.txt && mkdir sub && printf 's\\n' > sub/s.txt",
  );
  sh(dir, "git add . && git -c user.name=t -c user.email=t@t commit -qm init && printf 'dirty before\\n' >> c.txt");
}

async function remoteRun(tmp: string, cwd: string, steps: unknown[], program?: string) {
  const fake = installFake(tmp, "fake-agent", [{ read: "all" }, ...steps, { stdout: { t: "text", v: "done" } }], program);
  const engine = recordingEngine(join(tmp, "bin"));
  const remoteTmp = join(tmp, "remote-tmp");
  mkdirSync(remoteTmp, { recursive: true });
  const env = { ...fake.env, TMPDIR: remoteTmp };
  const events = await collect(runAgent({ agent: "fake", prompt: "go", cwd, on: "ssh://box" }, { registry, env }));
  expect(finished(events).status).toBe("succeeded");
  return { result: ofType(events, "run.result")[0]!, engine, leftovers: () => readdirSync(remoteTmp) };
}

describe("run.result on a target", () => {
  test("the files the agent wrote, deleted or created, with git's diff; a file dirty before and left alone is not among them", async () => {
    await using tmp = tmpdir();
    const work = join(tmp.path, "repo");
    repo(work);
    const { result, engine, leftovers } = await remoteRun(tmp.path, work, [
      { touch: "a.txt" },
      { touch: "new.txt" },
      { touch: WEIRD },
      { spawn: ["rm", "d.txt"] },
      { sleep: 300 },
    ]);
    expect(result.files).toEqual(["a.txt", "d.txt", WEIRD, "new.txt"].sort());
    expect(result.note).toBeUndefined();
    expect(result.diff).toContain("diff --git a/a.txt b/a.txt");
    expect(result.diff).toContain("+written by the fake agent");
    expect(result.diff).toContain("deleted file mode");
    expect(result.diff).toMatch(/diff --git a\/new.txt b\/new.txt\nnew file mode/);
    expect(result.diff).not.toContain("c.txt");
    // The target's index is as the agent left it: the new files are still untracked; no marker or private index left behind.
    expect(sh(work, "git status --porcelain -- new.txt")).toBe("?? new.txt\n");
    expect(leftovers()).toEqual([]);
    // Before, the run itself, after, the diff: four trips through the engine.
    expect(engine.calls().length).toBe(4);
  }, 30_000);

  test("a file dirty before and written again by the agent counts; in a subfolder, names are the subfolder's", async () => {
    await using tmp = tmpdir();
    const work = join(tmp.path, "repo");
    repo(work);
    writeFileSync(join(work, "sub", "s.txt"), "dirty before\n");
    const { result } = await remoteRun(tmp.path, join(work, "sub"), [{ touch: "s.txt" }, { touch: "t.txt" }]);
    expect(result.files).toEqual(["s.txt", "t.txt"]);
    expect(result.diff).toContain("diff --git a/sub/s.txt b/sub/s.txt");
    expect(result.diff).toContain("-s\n+written by the fake agent");
  }, 30_000);

  test("nothing the repository's config names runs: no filter driver, no hook", async () => {
    await using tmp = tmpdir();
    const work = join(tmp.path, "repo");
    repo(work);
    const pwned = join(tmp.path, "PWNED");
    sh(
      work,
      `git config filter.evil.clean 'touch ${pwned}; cat' && git config filter.evil.required true && echo '* filter=evil' > .gitattributes`,
    );
    const { result } = await remoteRun(tmp.path, work, [{ touch: "a.txt" }]);
    expect(result.files).toEqual(["a.txt"]);
    expect(result.diff).toContain("+written by the fake agent");
    expect(await Bun.file(pwned).exists()).toBe(false);
  }, 30_000);

  test("a .git the agent wrote in the working directory is not followed: the diff is the repository's found before it ran", async () => {
    await using tmp = tmpdir();
    const work = join(tmp.path, "repo");
    repo(work);
    const marker = join(tmp.path, "ran");
    // The agent: a git dir of its own whose config names a filter, a .gitattributes applying it, and sub/.git pointing there.
    const program = join(tmp.path, "hostile.ts");
    writeFileSync(
      program,
      `import { writeFileSync } from "node:fs";
await Bun.stdin.text();
const git = (...args: string[]) => Bun.spawnSync(["git", ...args]);
git("init", "-q", ".agent");
git("-C", ".agent", "-c", "user.name=a", "-c", "user.email=a@a", "commit", "-q", "--allow-empty", "-m", "agent");
git("-C", ".agent", "config", "filter.evil.clean", ${JSON.stringify(`echo clean >> '${marker}'; cat`)});
git("-C", ".agent", "config", "filter.evil.required", "true");
writeFileSync(".gitattributes", "* filter=evil\\n");
writeFileSync(".git", "gitdir: " + process.cwd() + "/.agent/.git\\n");
writeFileSync("s.txt", "agent\\n");
process.stdout.write(JSON.stringify({ t: "text", v: "done" }) + "\\n");
`,
    );
    const { result } = await remoteRun(tmp.path, join(work, "sub"), [], program);
    expect(await Bun.file(marker).exists()).toBe(false);
    expect(result.files).toContain("s.txt");
    expect(result.diff).toContain("diff --git a/sub/s.txt b/sub/s.txt");
    expect(result.diff).toContain("-s\n+agent");
  }, 30_000);

  test("outside a git work tree: no files, no diff, and a note that says why", async () => {
    await using tmp = tmpdir();
    const work = join(tmp.path, "plain");
    mkdirSync(work);
    const { result, leftovers } = await remoteRun(tmp.path, work, [{ touch: "a.txt" }]);
    expect(result.files).toEqual([]);
    expect(result.diff).toBeUndefined();
    expect(result.note).toContain("not in a git work tree");
    expect(result.note).toContain("ssh://box");
    expect(leftovers()).toEqual([]);
  }, 30_000);

  test("an unreachable target: the run says TARGET_UNREACHABLE, the summary says the folder could not be read", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-agent", [{ read: "all" }]);
    writeFileSync(join(tmp.path, "bin", "ssh"), "#!/bin/sh\necho 'ssh: connect to host box port 22: Connection refused' >&2\nexit 255\n");
    Bun.spawnSync(["chmod", "+x", join(tmp.path, "bin", "ssh")]);
    const events = await collect(runAgent({ agent: "fake", prompt: "x", cwd: "/srv", on: "ssh://box" }, { registry, env: fake.env }));
    expect(ofType(events, "error")[0]?.code).toBe("TARGET_UNREACHABLE");
    expect(ofType(events, "run.result")[0]).toMatchObject({ files: [], note: expect.stringContaining("could not be read") });
  });
});
