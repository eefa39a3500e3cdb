import { existsSync, lstatSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { OdError } from "../contract/errors.ts";
import { odHome } from "../os/paths.ts";
import { COMMIT, GROUP_ID, type Group, type GroupMember, keptBranch, PATCH_FILE, validGroup, writeGroup } from "../store/groups.ts";
import { DIFF, findRepo, git, openGit } from "./git.ts";
import type { FileStat } from "./keep.ts";

/** Where od keeps runs and compare groups: `<OD_HOME>/runs`, as the server's run log. */
export const runsDirOf = (env: Record<string, string | undefined> = process.env) => join(odHome(env), "runs");

/** The compare run with this id, or RUN_NOT_FOUND; INVALID_REQUEST when its record is not one od would have written. */
export function loadGroup(runsDir: string, id: string): Group {
  const group = GROUP_ID.test(id) ? validGroup(runsDir, id) : undefined;
  if (!group) throw new OdError("RUN_NOT_FOUND", `No compare run ${id}`, "`od run --agent a,b` prints its id at the end.");
  return group;
}

/** A member's kept result as a patch (binary-safe), or undefined when it changed nothing or was discarded. */
export async function memberPatch(runsDir: string, group: Group, member: GroupMember): Promise<string | undefined> {
  const kept = member.kept;
  if (!kept) return undefined;
  if (kept.kind === "patch") {
    const path = patchPath(runsDir, group, kept.file);
    return existsSync(path) && lstatSync(path).isFile() ? readFileSync(path, "utf8") : undefined;
  }
  const commit = checked(group, COMMIT.test(kept.commit) && kept.branch === keptBranch(group.id, member.label), kept.commit);
  const repo = await findRepo(group.cwd);
  const r = repo && (await git(repo, [...DIFF, "--binary", "--full-index", "--no-renames", "--end-of-options", `${commit}^`, commit]));
  return r?.code === 0 ? r.out : undefined;
}

/** Where a member's patch file is: a plain name in the group's own folder, checked again here (the schema did once). */
function patchPath(runsDir: string, group: Group, file: string): string {
  return join(runsDir, group.id, checked(group, PATCH_FILE.test(file), file));
}

/** `value` when `ok`; else the error a record od did not write gets. */
function checked(group: Group, ok: boolean, value: string): string {
  if (ok) return value;
  throw new OdError(
    "INVALID_REQUEST",
    `The record of compare run ${group.id} is not valid (${JSON.stringify(value)})`,
    "od does not act on it: its group.json was changed outside od.",
  );
}

/** The member to apply: the one named, else the only one with a kept result. */
function pick(group: Group, label?: string): GroupMember {
  const members = group.members.map((m) => m.label).join(", ");
  if (label !== undefined) {
    const m = group.members.find((x) => x.label === label);
    if (!m) throw new OdError("INVALID_REQUEST", `Compare run ${group.id} has no member "${label}"`, `Its members: ${members}.`);
    return m;
  }
  const withChanges = group.members.filter((m) => m.kept);
  if (withChanges.length === 1) return withChanges[0]!;
  throw new OdError(
    "INVALID_REQUEST",
    withChanges.length ? "Say which result to apply" : `No member of compare run ${group.id} has a result to apply`,
    withChanges.length ? `\`od apply ${group.id} <label>\`, one of: ${withChanges.map((m) => m.label).join(", ")}.` : undefined,
  );
}

export interface Applied {
  groupId: string;
  label: string;
  /** The folder the result was applied in (the repository's top in git). */
  dir: string;
  files: FileStat[];
  /** Of `files`, those the result creates and those it deletes (the rest it changes). */
  created: string[];
  deleted: string[];
  /** Whether `dir` is in a git work tree (where `git diff` and `git status` show the changes). */
  git: boolean;
}

/** The paths a patch creates and deletes, of those named: by git's `new file mode` / `deleted file mode` lines. */
export function patchKinds(patch: string, paths: string[]): { created: string[]; deleted: string[] } {
  const header = (p: string, kind: string) => patch.includes(`diff --git a/${p} b/${p}\n${kind} file mode`);
  return { created: paths.filter((p) => header(p, "new")), deleted: paths.filter((p) => header(p, "deleted")) };
}

/**
 * Applies one member's kept result to the user's working tree (`cwd`, else the group's own),
 * as `git apply` does: no commit, the index untouched. Refused, with nothing changed, when it
 * does not apply cleanly (the user has since changed what it touches) or is applied already.
 */
export async function applyResult(runsDir: string, groupId: string, label?: string, cwd?: string): Promise<Applied> {
  const group = loadGroup(runsDir, groupId);
  const member = pick(group, label);
  const patch = await memberPatch(runsDir, group, member);
  if (!patch)
    throw new OdError(
      "INVALID_REQUEST",
      `${member.label} has no result to apply`,
      member.kept ? "Its kept result is gone (deleted by hand?)." : (member.note ?? "It changed no file, or was discarded."),
    );
  const where = cwd ?? group.cwd;
  if (!existsSync(where)) throw new OdError("INVALID_REQUEST", `The folder to apply in is gone: ${where}`, "Pass --cwd.");
  // A branch's patch names paths from the repository's top; a copy's, from the folder it copied.
  const repo = await findRepo(where);
  const dir = member.kept?.kind === "branch" && repo?.workTree ? repo.workTree : where;
  const g = await openGit(repo, dir);
  const apply = (...args: string[]) => g.run(["apply", ...args, "--whitespace=nowarn", "-"], { cwd: dir, stdin: patch });
  const check = await apply("--check");
  if (check.code !== 0) {
    const already = (await apply("--check", "--reverse")).code === 0;
    const cmd = `od apply ${group.id} ${member.label}`;
    throw new OdError(
      "INVALID_REQUEST",
      already
        ? `${member.label}'s result is applied already in ${dir}`
        : `${member.label}'s result does not apply to ${dir}: ${firstLines(check.err)}`,
      already
        ? undefined
        : `A file it changes was changed since the run; nothing was touched. Commit or stash your work (\`git stash\`), then \`${cmd}\`.`,
    );
  }
  const r = await apply();
  if (r.code !== 0) throw new OdError("INTERNAL", `git apply failed after its check passed: ${firstLines(r.err)}`);
  writeGroup(runsDir, { ...group, applied: { label: member.label, at: Date.now() } });
  const paths = member.files.map((f) => f.path);
  return { groupId: group.id, label: member.label, dir, files: member.files, ...patchKinds(patch, paths), git: Boolean(repo?.workTree) };
}

const firstLines = (text: string) => text.trim().split("\n").slice(0, 3).join("; ") || "git said nothing";

export interface Discarded {
  groupId: string;
  branches: string[];
  patches: string[];
  /** Why something could not be removed (a branch checked out, the repository gone). */
  notes: string[];
}

/** Removes a compare run's kept results: its branches `od/<groupId>/*` and its patch files. The group's record stays. */
export async function discardGroup(runsDir: string, groupId: string, cwd?: string): Promise<Discarded> {
  const found = loadGroup(runsDir, groupId);
  const group = { ...found, cwd: cwd ?? found.cwd };
  const out: Discarded = { groupId: group.id, branches: [], patches: [], notes: [] };
  const repo = await findRepo(group.cwd);
  const refs = repo
    ? await git(repo, ["for-each-ref", "--format=%(refname:strip=2)", `refs/heads/od/${group.id}/`])
    : { code: 128, out: "", err: "not in a git work tree" };
  if (refs.code !== 0 && group.members.some((m) => m.kept?.kind === "branch"))
    out.notes.push(`the repository at ${group.cwd} could not be read: ${firstLines(refs.err)}`);
  for (const branch of refs.code === 0 ? refs.out.split("\n").filter(Boolean) : []) {
    const r = await git(repo, ["branch", "-D", "--", branch]);
    if (r.code === 0) out.branches.push(branch);
    else out.notes.push(`${branch} was not removed: ${firstLines(r.err)}`);
  }
  const members = group.members.map((m) => {
    if (m.kept?.kind === "patch") {
      rmSync(patchPath(runsDir, group, m.kept.file), { force: true });
      out.patches.push(m.kept.file);
    }
    const stays = m.kept?.kind === "branch" && !out.branches.includes(m.kept.branch) && out.notes.length > 0;
    return stays ? m : { ...m, kept: undefined, note: m.kept ? "discarded" : m.note };
  });
  writeGroup(runsDir, { ...found, members });
  return out;
}
