/** Compare runs, compiled: each member's result kept, `od apply` one of them, `od discard` the rest. */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DIST_OD, FIXTURES, installFake, tmpdir } from "../helpers.ts";

function od(args: string[], env: Record<string, string>) {
  const p = Bun.spawnSync([DIST_OD, ...args], { env: { NO_COLOR: "1", ...env }, stdin: "ignore" });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

const gitIn =
  (dir: string) =>
  (...args: string[]) =>
    Bun.spawnSync(["git", ...args], { cwd: dir }).stdout.toString();
const ID = ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"];

/** claude rewrites a.txt, pi creates b.txt; a.txt starts as "orig". */
function setup(tmp: string, withGit: boolean) {
  const dir = join(tmp, "work");
  mkdirSync(dir);
  writeFileSync(join(dir, "a.txt"), "orig\n");
  const git = gitIn(dir);
  if (withGit) {
    git("init", "-q");
    git("add", "a.txt");
    git(...ID, "commit", "-qm", "init");
  }
  const claude = installFake(tmp, "claude", [{ read: "all" }, { touch: "a.txt" }, { replay: join(FIXTURES, "claude/plain.jsonl") }]);
  installFake(tmp, "pi", [{ touch: "b.txt" }, { replay: join(FIXTURES, "pi/plain.jsonl") }]);
  return { dir, git, env: claude.env };
}

/** The compare run's last --json line. */
function compare(dir: string, env: Record<string, string>) {
  const r = od(["run", "--agent", "claude,pi", "--json", "--cwd", dir, "go"], env);
  expect(r.code).toBe(0);
  const lines = r.out
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  const last = lines.at(-1);
  expect(last.type).toBe("compare.result");
  expect(lines.filter((l) => l.type === "run.result")).toHaveLength(2);
  return last as { groupId: string; members: { label: string; runId: string; kept?: { kind: string }; files: unknown[] }[] };
}

describe("od apply and od discard (compiled)", () => {
  test("in git: each result is a branch; apply puts exactly one into the tree; discard removes the branches", async () => {
    await using tmp = tmpdir();
    const { dir, git, env } = setup(tmp.path, true);
    const head = git("rev-parse", "HEAD");
    const { groupId, members } = compare(dir, env);
    expect(members.map((m) => m.label)).toEqual(["claude", "pi"]);
    expect(members.find((m) => m.label === "pi")!.files).toEqual([{ path: "b.txt", added: 1, removed: 0 }]);
    const branches = () => git("for-each-ref", "--format=%(refname:short)", `refs/heads/od/${groupId}/`).trim().split("\n").filter(Boolean);
    expect(branches()).toEqual([`od/${groupId}/claude`, `od/${groupId}/pi`]);
    expect(git("status", "--porcelain")).toBe(""); // the user's tree, index and branch as they were
    expect(git("rev-parse", "HEAD")).toBe(head);

    const applied = od(["apply", groupId, "pi", "--cwd", dir], env);
    expect(applied.code).toBe(0);
    expect(applied.out).toContain("b.txt (new, +1 −0)");
    expect(readFileSync(join(dir, "b.txt"), "utf8")).toBe("written by the fake agent\n");
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("orig\n");
    expect(git("status", "--porcelain")).toBe("?? b.txt\n"); // not staged, not committed
    expect(git("rev-parse", "HEAD")).toBe(head);
    expect(branches()).toHaveLength(2);
    const group = JSON.parse(readFileSync(join(env.OD_HOME!, "runs", groupId, "group.json"), "utf8"));
    expect(group.applied.label).toBe("pi");

    const discarded = od(["discard", groupId, "--json"], env);
    expect(discarded.code).toBe(0);
    expect(JSON.parse(discarded.out).branches.sort()).toEqual([`od/${groupId}/claude`, `od/${groupId}/pi`]);
    expect(branches()).toEqual([]);
  });

  test("ids as `od runs` prints them: apply, discard and runs show take the short id; unknown or ambiguous ones are usage errors (exit 2)", async () => {
    await using tmp = tmpdir();
    const { dir, git, env } = setup(tmp.path, true);
    const { groupId, members } = compare(dir, env);
    const short = od(["runs"], env).out.split("\n")[1]!.split(/ +/)[0]!;
    expect(short).toBe(groupId.slice(0, 8));
    expect(od(["runs", "show", short], env).out).toContain(`compare run ${groupId}`);

    const applied = od(["apply", short, "pi", "--cwd", dir], env);
    expect(applied.code).toBe(0);
    // What changed, by name, a new file said so: `git diff` shows nothing of an untracked file.
    expect(applied.out).toContain("b.txt (new, +1 −0)");
    expect(applied.err).toContain("git status");
    expect(applied.err).toContain("b.txt");
    expect(git("status", "--porcelain")).toBe("?? b.txt\n");

    const unknown = od(["apply", "zzzz9999", "pi"], env);
    expect([unknown.code, unknown.out]).toEqual([2, ""]);
    expect(unknown.err).toContain("No run with an id starting zzzz9999");
    expect(unknown.err).toContain("hint: `od runs` lists");
    const member = od(["apply", members[0]!.runId.slice(0, 8)], env);
    expect(member.code).toBe(2);
    expect(member.err).toContain(`part of compare run ${groupId}`);
    // Two folders that start alike: the prefix is refused, naming both.
    mkdirSync(join(env.OD_HOME!, "runs", `${groupId.slice(0, 4)}zz-other`));
    const ambiguous = od(["discard", groupId.slice(0, 4)], env);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.err).toContain(groupId);
    expect(ambiguous.err).toContain(`${groupId.slice(0, 4)}zz-other`);

    const discarded = od(["discard", short, "--json"], env);
    expect(discarded.code).toBe(0);
    expect(JSON.parse(discarded.out).groupId).toBe(groupId);
  });

  test("in git: refused, nothing changed, when the user has since edited a file the result changes", async () => {
    await using tmp = tmpdir();
    const { dir, env } = setup(tmp.path, true);
    const { groupId } = compare(dir, env);
    writeFileSync(join(dir, "a.txt"), "mine\n");
    const before = readFileSync(join(dir, "a.txt"));
    const r = od(["apply", groupId, "claude", "--cwd", dir], env);
    expect(r.code).toBe(2);
    expect(r.err).toContain("does not apply");
    expect(readFileSync(join(dir, "a.txt"))).toEqual(before);
    expect(existsSync(join(dir, "b.txt"))).toBe(false);
    expect(od(["apply", groupId, "--cwd", dir], env).err).toContain("Say which result to apply");
  });

  test("outside git: results are patches; apply works, refuses a conflicting edit, discard removes them", async () => {
    await using tmp = tmpdir();
    const { dir, env } = setup(tmp.path, false);
    const { groupId, members } = compare(dir, env);
    expect(members.map((m) => m.kept?.kind)).toEqual(["patch", "patch"]);
    const folder = join(env.OD_HOME!, "runs", groupId);
    expect(readdirSync(folder).sort()).toEqual(["claude.patch", "group.json", "pi.patch"]);
    writeFileSync(join(dir, "a.txt"), "mine\n");
    const r = od(["apply", groupId, "claude", "--cwd", dir], env);
    expect(r.code).toBe(2);
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("mine\n");
    expect(od(["apply", groupId, "pi", "--cwd", dir], env).code).toBe(0);
    expect(readFileSync(join(dir, "b.txt"), "utf8")).toBe("written by the fake agent\n");
    expect(readdirSync(dir).sort()).toEqual(["a.txt", "b.txt"]);
    expect(od(["discard", groupId], env).out).toContain("removed patch pi.patch");
    expect(readdirSync(folder)).toEqual(["group.json"]);
    expect(od(["apply", groupId, "pi", "--cwd", dir], env).code).toBe(2); // nothing left to apply
  });

  test("--repeat 2: labels x and x#2, two branches, each run's own session shown; bad --repeat is a usage error", async () => {
    await using tmp = tmpdir();
    const { dir, git, env } = setup(tmp.path, true);
    // A claude whose every run is a new session, writing a file of its own.
    const program = join(tmp.path, "claude-new-session.ts");
    writeFileSync(
      program,
      `import { readFileSync, writeFileSync } from "node:fs";
await Bun.stdin.text();
const id = crypto.randomUUID();
writeFileSync(\`run-\${id}.txt\`, "x\\n");
process.stdout.write(readFileSync(${JSON.stringify(join(FIXTURES, "claude/plain.jsonl"))}, "utf8").replaceAll("a8502b9f-1c7c-4b65-8114-46286ff56fff", id));
`,
    );
    installFake(tmp.path, "claude", [], program);
    const r = od(["run", "--agent", "claude", "--repeat", "2", "--cwd", dir, "go"], env);
    expect(r.code).toBe(0);
    const groupId = /od discard ([\w-]+)/.exec(r.out)![1]!;
    expect(r.out).toMatch(new RegExp(`^claude +succeeded .*od apply ${groupId} claude$`, "m"));
    expect(r.out).toMatch(new RegExp(`^claude#2 +succeeded .*od apply ${groupId} 'claude#2'$`, "m"));
    const ids = [...r.out.matchAll(/^(claude(?:#2)?): resume with od run --agent claude --resume ([\w-]+)$/gm)].map((m) => m[2]);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    const streamed = [...r.err.matchAll(/^\[(claude(?:#2)?)\] .*resume with --resume ([\w-]+)/gm)].map((m) => `${m[1]} ${m[2]}`);
    expect(streamed.sort()).toEqual([`claude ${ids[0]}`, `claude#2 ${ids[1]}`].sort());
    expect(git("for-each-ref", "--format=%(refname:short)", `refs/heads/od/${groupId}/`).trim().split("\n")).toEqual([
      `od/${groupId}/claude`,
      `od/${groupId}/claude#2`,
    ]);
    for (const bad of [
      ["--repeat", "0"],
      ["--repeat", "99"],
      ["--repeat", "2", "--agent", "claude,pi"],
      ["--repeat", "x"],
    ]) {
      const refused = od(["run", ...bad, "--cwd", dir, "go"], env);
      expect(refused.code).toBe(2);
      expect(refused.err).toContain("--repeat");
    }
  });
  // group.json is a file on disk: whatever is in it is checked before it becomes an argument or a path.
  test("a tampered group.json is refused with a clear error; the file a `--output=` names is untouched, a patch path outside the run is never read or removed", async () => {
    await using tmp = tmpdir();
    const { dir, env } = setup(tmp.path, true);
    const { groupId } = compare(dir, env);
    const record = join(env.OD_HOME!, "runs", groupId, "group.json");
    const original = readFileSync(record, "utf8");
    const victim = join(tmp.path, "victim.txt");
    writeFileSync(victim, "precious\n");
    const tampered = (change: (m: { label: string; kept: Record<string, string> }) => void) => {
      const group = JSON.parse(original);
      change(group.members.find((m: { label: string }) => m.label === "pi"));
      writeFileSync(record, JSON.stringify(group));
    };
    for (const change of [
      (m: { kept: Record<string, string> }) => (m.kept.commit = `--output=${victim}`),
      (m: { kept: Record<string, string> }) => (m.kept.branch = "--output=x"),
      (m: { kept: Record<string, string> }) => (m.kept = { kind: "patch", file: "../../../victim.txt" }),
      (m: { kept: Record<string, string> }) => (m.kept = { kind: "patch", file: victim }),
    ]) {
      tampered(change);
      const r = od(["apply", groupId, "pi", "--cwd", dir], env);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`The record of compare run ${groupId} is not valid`);
      expect(readFileSync(victim, "utf8")).toBe("precious\n");
      expect(existsSync(join(dir, "b.txt"))).toBe(false);
      const d = od(["discard", groupId], env);
      expect(d.code).toBe(2);
      expect(readFileSync(victim, "utf8")).toBe("precious\n");
    }
  }, 30_000);
  // Issue 29: the agent points its worktree's .git at the user's own git dir. od's git must not follow it.
  test("an agent that points its worktree's .git at the user's git dir: the user's index and status are as they were, no worktree is left, od apply finds its result", async () => {
    await using tmp = tmpdir();
    const { dir, git, env } = setup(tmp.path, true);
    const gitDir = join(dir, ".git");
    const program = join(tmp.path, "claude-hostile.ts");
    writeFileSync(
      program,
      `import { readFileSync, rmSync, writeFileSync } from "node:fs";
await Bun.stdin.text();
writeFileSync("a.txt", "agent\\n");
writeFileSync("agentfile.txt", "x\\n");
rmSync(".git", { recursive: true, force: true });
writeFileSync(".git", ${JSON.stringify(`gitdir: ${gitDir}\n`)});
process.stdout.write(readFileSync(${JSON.stringify(join(FIXTURES, "claude/plain.jsonl"))}, "utf8"));
`,
    );
    installFake(tmp.path, "claude", [], program);
    const index = readFileSync(join(gitDir, "index"));
    const status = git("status", "--porcelain");
    const r = od(["run", "--agent", "claude,pi", "--mode", "full", "--json", "--cwd", dir, "go"], env);
    expect(r.code).toBe(0);
    const { groupId, members } = JSON.parse(r.out.trim().split("\n").at(-1)!);
    expect(readFileSync(join(gitDir, "index"))).toEqual(index);
    expect(git("status", "--porcelain")).toBe(status);
    expect(git("worktree", "list", "--porcelain").match(/^worktree /gm)).toHaveLength(1);
    expect(git("worktree", "list", "--porcelain")).not.toContain("prunable");
    expect(members.find((m: { label: string }) => m.label === "claude").files.map((f: { path: string }) => f.path)).toEqual([
      "a.txt",
      "agentfile.txt",
    ]);
    const applied = od(["apply", groupId, "claude", "--cwd", dir], env);
    expect(applied.code).toBe(0);
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("agent\n");
    expect(readFileSync(join(dir, "agentfile.txt"), "utf8")).toBe("x\n");
  });
});
