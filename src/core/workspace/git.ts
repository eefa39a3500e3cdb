import { copyFileSync, existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ownGitDir } from "../os/git-dir.ts";

/**
 * The one way od runs git (a structure test keeps it so). An agent may have written any file in
 * the folder it worked in, so od's git obeys none of them: it works on the git dir and work tree
 * od found before the agent ran (explicit `--git-dir`/`--work-tree`, never a `.git` file as the
 * agent left it), with no system or global config, no hook, no fsmonitor, no filter driver (every
 * one the repository's config names is switched off), no external diff or textconv, names as
 * names (never patterns), and no `GIT_*` variable of od's own environment. Never through a shell;
 * a git that cannot start (none installed, a folder that is gone) is a failure like any other.
 */

/** A repository as od found it: its git dir and (but for od's own bare repositories) its work tree, absolute. */
export interface GitTree {
  gitDir: string;
  workTree?: string;
}

export interface GitResult {
  code: number;
  out: string;
  err: string;
}

export interface GitOptions {
  /** Where git runs (default: the work tree): a subfolder makes paths relative to it, as `git apply` reads them. */
  cwd?: string;
  stdin?: string;
  /** Output beyond this is cut (git is stopped) and marked. */
  maxBytes?: number;
  /** The index git reads and writes instead of the repository's own (a private one od made). */
  index?: string;
}

/** A diff as git itself writes it: no colour, no external diff tool, no textconv. */
export const DIFF = ["diff", "--no-color", "--no-ext-diff", "--no-textconv"];

/** A diff longer than this (a rewritten lockfile, a data file) is cut, and says so. */
export const MAX_DIFF_BYTES = 1024 * 1024;

/** A hooks folder that never exists (nothing can be made under /dev/null): no hook runs. */
const NO_HOOKS = "/dev/null/no-hooks";

/** Settings every command gets, after the repository's own: nothing they name runs, nothing more is written than asked. */
export const GUARD_CONFIG = [
  `core.hooksPath=${NO_HOOKS}`,
  "core.fsmonitor=false",
  "core.untrackedCache=false",
  "core.splitIndex=false",
  // A submodule is not looked into (git would run `git status` there, under that folder's own .git and config).
  "diff.ignoreSubmodules=dirty",
  "submodule.recurse=false",
  "gc.auto=0",
  "maintenance.auto=false",
  "commit.gpgSign=false",
];

/** The environment git runs in: no system or global config or attributes, no prompt. */
export const GUARD_ENV = { GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_ATTR_NOSYSTEM: "1", GIT_TERMINAL_PROMPT: "0" };

/** Global options before the command: no optional locks (status and diff write no index), names as names. */
const GLOBAL = ["--no-optional-locks", "--literal-pathspecs"];

/** git on one repository, with the filter drivers its config named when it was opened switched off. */
export interface Git {
  readonly tree: GitTree | undefined;
  run(args: string[], opts?: GitOptions): Promise<GitResult>;
  /** git's output of a step that must succeed; else an error naming the step and what git said. */
  must(args: string[], opts?: GitOptions): Promise<string>;
}

/**
 * git on `tree` for a series of steps with no agent running in between (the config is read once, now);
 * with no tree, git finds the repository from `cwd` itself (for `findRepo`, and `git apply` outside one).
 */
export async function openGit(tree: GitTree | undefined, cwd?: string): Promise<Git> {
  const at = cwd ?? tree?.workTree ?? tree?.gitDir ?? process.cwd();
  const base = baseArgs(tree);
  const off = await filtersOff(base, at, guardedEnv(undefined));
  const run = async (args: string[], opts: GitOptions = {}) =>
    Array.isArray(off) ? spawn(["git", ...base, ...off, ...diffGuarded(args)], opts.cwd ?? at, guardedEnv(opts.index), opts) : off;
  return { tree, run, must: async (args, opts) => succeeded(await run(args, opts), args) };
}

/** One step on `tree`: the config read just before it (but for a step that reads no file's content, where no filter can run). */
export async function git(tree: GitTree | undefined, args: string[], opts: GitOptions = {}): Promise<GitResult> {
  if (!CONTENT_FREE.has(subcommand(args))) return (await openGit(tree, opts.cwd)).run(args, opts);
  const cwd = opts.cwd ?? tree?.workTree ?? tree?.gitDir ?? process.cwd();
  return spawn(["git", ...baseArgs(tree), ...args], cwd, guardedEnv(opts.index), opts);
}

/** `git` for a step that must succeed: its output, else an error naming the step and what git said. */
export async function must(tree: GitTree | undefined, args: string[], opts: GitOptions = {}): Promise<string> {
  return succeeded(await git(tree, args, opts), args);
}

function succeeded(r: GitResult, args: string[]): string {
  if (r.code !== 0) throw new Error(`git ${args.join(" ")} failed (exit ${r.code}): ${r.err.trim() || r.out.trim()}`);
  return r.out;
}

/** Before every command: the guard's options, the explicit git dir and work tree, the guard's settings. */
function baseArgs(tree: GitTree | undefined): string[] {
  const where = tree ? [`--git-dir=${tree.gitDir}`, ...(tree.workTree ? [`--work-tree=${tree.workTree}`] : [])] : [];
  return [...GLOBAL, ...where, ...GUARD_CONFIG.flatMap((c) => ["-c", c])];
}

const FIND = ["rev-parse", "--absolute-git-dir", "--show-toplevel"];

/** The repository `cwd` is in, as git finds it now (before any agent runs there); undefined outside a work tree or with no git. */
export async function findRepo(cwd: string): Promise<GitTree | undefined> {
  return gitAbove(cwd) ? repoOf(await git(undefined, FIND, { cwd })) : undefined;
}

/**
 * Whether git could find a work tree from `cwd`: a `.git` (folder or file) in it or a folder above.
 * Without one (git's discovery needs one: od passes no GIT_DIR) git is not asked, which spared a
 * run outside any repository a process. With one, git decides (a file system boundary, a gitfile
 * pointing elsewhere, a `.git` folder that is not a repository).
 */
function gitAbove(cwd: string): boolean {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return true;
    if (dirname(dir) === dir) return false;
  }
}

/**
 * `findRepo`, blocking: for a run's own folder, found before the run goes on to launch its agent
 * (rev-parse reads no file's content, so no filter can run and none need be switched off).
 */
export function findRepoSync(cwd: string): GitTree | undefined {
  if (!gitAbove(cwd)) return undefined;
  try {
    const p = Bun.spawnSync(["git", ...baseArgs(undefined), ...FIND], { cwd, env: guardedEnv(undefined) });
    return repoOf({ code: p.exitCode ?? 1, out: p.stdout.toString(), err: "" });
  } catch {
    return undefined;
  }
}

function repoOf(r: GitResult): GitTree | undefined {
  const [gitDir, workTree] = r.out.split("\n");
  return r.code === 0 && gitDir && workTree && ownGitDir(workTree, gitDir) ? { gitDir, workTree } : undefined;
}

/**
 * A copy of `tree`'s index at `<dir>/index` (none there, a repository with no commits yet: none, and
 * git starts an empty one), for commands that would rewrite the index they read; undefined when it
 * cannot be made.
 */
export function privateIndex(tree: GitTree, dir: string): string | undefined {
  // The git dir's own (a linked worktree's git dir holds its index); GIT_INDEX_FILE is never passed on.
  const to = join(dir, "index");
  try {
    copyFileSync(join(tree.gitDir, "index"), to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") return undefined;
  }
  return to;
}

/** od's environment without any `GIT_*` of its own (GIT_DIR, GIT_CONFIG_PARAMETERS, GIT_EXTERNAL_DIFF...), and the guard's. */
function guardedEnv(index: string | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^GIT_/i.test(k)) env[k] = v;
  return { ...env, ...GUARD_ENV, ...(index ? { GIT_INDEX_FILE: index } : {}) };
}

/**
 * `-c` options that switch off every filter driver the repository's config names (with its includes):
 * git runs a driver's clean or smudge command on the files it reads or writes, whatever .gitattributes
 * names it. A GitResult (the failure) when the config cannot be read or names a driver with "=" in it.
 */
async function filtersOff(base: string[], cwd: string, env: Record<string, string>): Promise<string[] | GitResult> {
  const r = await spawn(["git", ...base, "config", "-z", "--name-only", "--get-regexp", "^filter\\."], cwd, env, {});
  if (r.code === 1) return [];
  if (r.code !== 0) return r;
  const names = new Set(
    r.out
      .split("\0")
      .filter(Boolean)
      .map((key) => key.slice("filter.".length, key.lastIndexOf("."))),
  );
  if ([...names].some((n) => /[=\n]/.test(n)))
    return { code: -1, out: "", err: "od: the repository's config names a filter driver with '='" };
  return [...names].flatMap((n) => ["clean=", "smudge=", "process=", "required=false"].flatMap((v) => ["-c", `filter.${n}.${v}`]));
}

/** Commands that never read or write a file's content (no filter can run): the config need not be read for them. */
const CONTENT_FREE = new Set(["rev-parse", "update-ref", "commit-tree", "write-tree", "for-each-ref", "init"]);

/** The command in `args`, after any `-c <setting>` (od's committer settings). */
function subcommand(args: string[]): string {
  let i = 0;
  while (i < args.length && args[i]!.startsWith("-")) i += args[i] === "-c" ? 2 : 1;
  return args[i] ?? "";
}

/** A `diff` always with --no-ext-diff and --no-textconv (DIFF has them; this holds when a caller forgets). */
function diffGuarded(args: string[]): string[] {
  if (subcommand(args) !== "diff") return args;
  const i = args.indexOf("diff");
  const missing = ["--no-ext-diff", "--no-textconv"].filter((f) => !args.includes(f));
  return [...args.slice(0, i + 1), ...missing, ...args.slice(i + 1)];
}

async function spawn(cmd: string[], cwd: string, env: Record<string, string>, opts: GitOptions): Promise<GitResult> {
  let p: Bun.Subprocess<"ignore" | Blob, "pipe", "pipe">;
  try {
    p = Bun.spawn(cmd, {
      cwd,
      env,
      stdin: opts.stdin === undefined ? "ignore" : new Blob([opts.stdin]),
      stdout: "pipe",
      stderr: "pipe",
    });
  } catch (err) {
    return { code: -1, out: "", err: String((err as Error).message) };
  }
  const [out, err] = await Promise.all([bounded(p, opts.maxBytes ?? Number.POSITIVE_INFINITY), new Response(p.stderr).text(), p.exited]);
  return out.cut
    ? { code: 0, out: `${out.text}\n[od: the output is longer than ${opts.maxBytes} bytes and was cut here]\n`, err }
    : { code: p.exitCode ?? 1, out: out.text, err };
}

async function bounded(p: Bun.Subprocess<"ignore" | Blob, "pipe", "pipe">, maxBytes: number): Promise<{ text: string; cut: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of p.stdout) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > maxBytes) {
      p.kill();
      return { text: Buffer.concat(chunks).subarray(0, maxBytes).toString("utf8"), cut: true };
    }
  }
  return { text: Buffer.concat(chunks).toString("utf8"), cut: false };
}
