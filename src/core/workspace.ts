import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

/** A private copy of a working directory for one agent, and what that agent changed in it. */
export interface Workspace {
  dir: string;
  kind: "worktree" | "copy";
  changes(): Promise<{ files: string[]; diff?: string }>;
  dispose(): Promise<void>;
}

const GIT_ID = ["-c", "user.name=od", "-c", "user.email=od@localhost", "-c", "commit.gpgsign=false"];

async function git(args: string[], cwd: string, stdin?: string): Promise<{ code: number; out: string }> {
  const p = Bun.spawn(["git", ...args], { cwd, stdin: stdin === undefined ? "ignore" : new Blob([stdin]), stdout: "pipe", stderr: "pipe" });
  const [out] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code: p.exitCode ?? 1, out };
}

/**
 * A git worktree when `cwd` is in a repository (the user's uncommitted changes
 * applied, then committed as a private baseline, so the agent's own diff is
 * exact), else a plain copy. The user's tree is never touched.
 */
export async function createWorkspace(cwd: string, label: string): Promise<Workspace> {
  const root = mkdtempSync(join(tmpdir(), `od-ws-${label}-`));
  const dir = join(root, "work");
  const top = await git(["rev-parse", "--show-toplevel"], cwd);
  if (top.code === 0 && (await git(["rev-parse", "--verify", "HEAD"], cwd)).code === 0) {
    const repo = top.out.trim();
    await git(["worktree", "add", "--detach", dir, "HEAD"], repo);
    const pending = (await git(["diff", "HEAD", "--binary"], repo)).out;
    if (pending) await git(["apply", "--whitespace=nowarn"], dir, pending);
    await git(["add", "-A"], dir);
    await git([...GIT_ID, "commit", "-q", "--allow-empty", "--no-verify", "-m", "od baseline"], dir);
    const sub = relative(repo, cwd);
    return {
      dir: join(dir, sub),
      kind: "worktree",
      async changes() {
        await git(["add", "-A", "-N"], dir);
        const files = (await git(["diff", "--name-only", "HEAD"], dir)).out.split("\n").filter(Boolean);
        return { files, diff: (await git(["diff", "HEAD"], dir)).out };
      },
      async dispose() {
        await git(["worktree", "remove", "--force", dir], repo);
        rmSync(root, { recursive: true, force: true });
      },
    };
  }
  cpSync(cwd, dir, { recursive: true });
  const before = fingerprint(dir);
  return {
    dir,
    kind: "copy",
    async changes() {
      const after = fingerprint(dir);
      const files = [...new Set([...before.keys(), ...after.keys()])].filter((f) => before.get(f) !== after.get(f)).sort();
      return { files };
    },
    async dispose() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Every file under dir with a content hash. */
function fingerprint(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of readdirSync(dir, { recursive: true }).map(String)) {
    const full = join(dir, name);
    try {
      if (statSync(full).isFile()) out.set(name, Bun.hash(readFileSync(full)).toString(16));
    } catch {}
  }
  return out;
}
