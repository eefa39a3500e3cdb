import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createWorkspace } from "../../../src/core/workspace/worktree.ts";
import { ROOT, tmpdir } from "../../helpers.ts";

/** A repository with one commit and one staged, uncommitted file. */
function repoIn(dir: string) {
  const repo = join(dir, "repo");
  mkdirSync(repo);
  const sh = (cmd: string) => Bun.spawnSync(["sh", "-c", cmd], { cwd: repo });
  sh("git init -q && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m init");
  writeFileSync(join(repo, "work.txt"), "uncommitted\n");
  sh("git add work.txt");
  return {
    repo,
    worktrees: () =>
      sh("git worktree list --porcelain")
        .stdout.toString()
        .match(/^worktree /gm)?.length ?? 0,
  };
}

describe("workspaces", () => {
  test("a worktree starts from the user's uncommitted state (untracked files too, ignored ones not) and reports only the agent's change", async () => {
    await using tmp = tmpdir();
    const { repo, worktrees } = repoIn(tmp.path);
    mkdirSync(join(repo, "notes"));
    writeFileSync(join(repo, "notes", "draft.md"), "untracked\n");
    writeFileSync(join(repo, ".gitignore"), "*.log\n");
    writeFileSync(join(repo, "debug.log"), "ignored\n");
    Bun.spawnSync(["sh", "-c", "mkdir nested && cd nested && git init -q && echo inner > inner.txt"], { cwd: repo }); // an untracked repository inside
    // Settings that change what `git diff` prints: od's diffs must not depend on them.
    Bun.spawnSync(["sh", "-c", "git config color.ui always && git config diff.external false && git config core.quotePath true"], {
      cwd: repo,
    });
    // A hook of the user's is theirs to run, not od's.
    writeFileSync(join(repo, ".git", "hooks", "post-checkout"), `#!/bin/sh\ntouch "${join(tmp.path, "hook-ran")}"\n`, { mode: 0o755 });
    const ws = await createWorkspace(repo, "a", { env: { OD_HOME: join(tmp.path, "home") } });
    expect(ws.kind).toBe("worktree");
    expect(readFileSync(join(ws.dir, "work.txt"), "utf8")).toBe("uncommitted\n");
    expect(readFileSync(join(ws.dir, "notes", "draft.md"), "utf8")).toBe("untracked\n");
    expect(existsSync(join(ws.dir, "debug.log"))).toBe(false);
    expect(readFileSync(join(ws.dir, "nested", "inner.txt"), "utf8")).toBe("inner\n");
    expect(existsSync(join(tmp.path, "hook-ran"))).toBe(false);
    writeFileSync(join(ws.dir, "new.txt"), "agent\n");
    writeFileSync(join(ws.dir, "café.txt"), "agent\n");
    const { files, diff } = await ws.changes();
    expect(files).toEqual(["café.txt", "new.txt"]);
    expect(diff).toContain("+agent");
    expect(diff).not.toContain("\x1b[");
    await ws.dispose();
    expect(existsSync(ws.dir)).toBe(false);
    expect(worktrees()).toBe(1);
  });

  test("when git refuses the worktree, the error says what git said and nothing is left behind", async () => {
    await using tmp = tmpdir();
    const { repo, worktrees } = repoIn(tmp.path);
    writeFileSync(join(repo, ".git", "worktrees"), "a file where git keeps its worktrees\n");
    const before = readdirSync(join(tmp.path, "..")).filter((n) => n.startsWith("od-ws-x-")).length;
    const failure = await createWorkspace(repo, "x", { env: { OD_HOME: join(tmp.path, "home") } }).then(
      () => undefined,
      (err: Error) => err.message,
    );
    expect(failure).toContain("git worktree add");
    expect(failure).toContain("worktrees");
    expect(readdirSync(join(tmp.path, "..")).filter((n) => n.startsWith("od-ws-x-")).length).toBe(before);
    expect(worktrees()).toBe(1);
  });

  test("with no git installed, a repository gets a plain copy", async () => {
    await using tmp = tmpdir();
    const { repo } = repoIn(tmp.path);
    const script = join(tmp.path, "no-git.ts");
    writeFileSync(
      script,
      `import { createWorkspace } from ${JSON.stringify(join(ROOT, "src/core/workspace/worktree.ts"))};\nconst ws = await createWorkspace(${JSON.stringify(repo)}, "a");\nconsole.log(ws.kind);\nawait ws.dispose();`,
    );
    const p = Bun.spawnSync([process.execPath, script], { env: { PATH: join(tmp.path, "no-bin"), OD_HOME: join(tmp.path, "home") } });
    expect(p.stderr.toString()).toBe("");
    expect(p.stdout.toString()).toBe("copy\n");
  });

  // A relative link copied by a plain cpSync arrives as an absolute link to the user's own folder:
  // what the agent then writes through it lands in the user's files.
  for (const kind of ["copy", "worktree"] as const)
    test(`links arrive as they are (${kind}): a relative one leads inside the copy, the user's linked folder gains nothing`, async () => {
      await using tmp = tmpdir();
      const user = kind === "worktree" ? repoIn(tmp.path).repo : join(tmp.path, "plain");
      mkdirSync(join(user, "real"), { recursive: true });
      writeFileSync(join(user, "real", "keep.txt"), "mine\n");
      if (kind === "worktree")
        Bun.spawnSync(["sh", "-c", "git add real && git -c user.name=t -c user.email=t@t commit -qm real"], { cwd: user });
      symlinkSync("real", join(user, "link")); // untracked in the repository: the baseline copies it
      mkdirSync(join(tmp.path, "elsewhere"));
      writeFileSync(join(tmp.path, "elsewhere", "theirs.txt"), "not the copy's\n");
      symlinkSync(join(tmp.path, "elsewhere"), join(user, "abs"));
      const ws = await createWorkspace(user, "a", { env: { OD_HOME: join(tmp.path, "home") } });
      try {
        expect(ws.kind).toBe(kind);
        expect(readlinkSync(join(ws.dir, "link"))).toBe("real");
        expect(readlinkSync(join(ws.dir, "abs"))).toBe(join(tmp.path, "elsewhere"));
        writeFileSync(join(ws.dir, "link", "agent.txt"), "through the link\n");
        expect(readdirSync(join(user, "real"))).toEqual(["keep.txt"]);
        expect(readFileSync(join(ws.dir, "real", "agent.txt"), "utf8")).toBe("through the link\n");
        // Once, by its own name: a link is a link, not a second way into the folder (nor out of the copy).
        expect((await ws.changes()).files).toEqual(["real/agent.txt"]);
      } finally {
        await ws.dispose();
      }
    });

  // git's own bookkeeping of worktrees is not safe when adds and removes overlap
  // (a remove deletes .git/worktrees while an add fills it): seen as a run that
  // failed to start and worktrees left registered. A git on PATH that logs each
  // worktree command and holds it for a moment shows whether two ever overlap.
  test("one repository's worktree adds and removes never overlap, and all of them succeed", async () => {
    await using tmp = tmpdir();
    const { repo, worktrees } = repoIn(tmp.path);
    const bin = join(tmp.path, "bin");
    mkdirSync(bin);
    const log = join(tmp.path, "git.log");
    const realGit = Bun.which("git")!;
    const wrapper = `#!/bin/sh
op=""; prev=""
for a in "$@"; do [ "$prev" = worktree ] && op="$a"; prev="$a"; done
[ -z "$op" ] && exec "${realGit}" "$@"
echo "begin $op" >> "${log}"; sleep 0.05; "${realGit}" "$@"; rc=$?; echo "end $op" >> "${log}"; exit $rc
`;
    writeFileSync(join(bin, "git"), wrapper);
    chmodSync(join(bin, "git"), 0o755);
    const script = join(tmp.path, "many.ts");
    writeFileSync(
      script,
      `import { createWorkspace } from ${JSON.stringify(join(ROOT, "src/core/workspace/worktree.ts"))};
await Promise.all(["a", "b", "c", "d"].map(async (l) => { const ws = await createWorkspace(${JSON.stringify(repo)}, l); await ws.dispose(); }));`,
    );
    const p = Bun.spawnSync([process.execPath, script], {
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, OD_HOME: join(tmp.path, "home") },
    });
    expect(p.stderr.toString()).toBe("");
    expect(p.exitCode).toBe(0);
    const lines = readFileSync(log, "utf8").trim().split("\n");
    expect(lines.filter((l) => l === "begin add")).toHaveLength(4);
    expect(lines.filter((l) => l === "begin remove")).toHaveLength(4);
    for (let i = 0; i < lines.length; i += 2) expect([lines[i]?.split(" ")[0], lines[i + 1]?.split(" ")[0]]).toEqual(["begin", "end"]);
    expect(worktrees()).toBe(1);
  }, 20_000); // four workspaces through a shell wrapper: seconds on a busy machine
});
