import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { OdError } from "../contract/errors.ts";
import { built, lazySchema } from "../contract/lazy.ts";
import { z } from "../contract/zod.ts";
import { storageError } from "./fault.ts";

/**
 * A compare run (several agents, or one agent repeated, on the same task) as it is kept:
 * `<runs>/<groupId>/group.json`, beside the member runs' own logs (`<runs>/<runId>/`). Each
 * member's result is kept as a git branch `od/<groupId>/<label>` on top of the user's starting
 * point, or, outside a git repository, as a patch file in the group's folder. `od apply`,
 * `od discard`, `od runs` and the server read it from here.
 */

/**
 * What a value read from group.json may be before od hands it to git or the disk (a record can be
 * edited by anyone who can write OD_HOME): a commit is 40 or 64 hex digits, an id and a label are
 * plain words (an agent id, then `#2`), a branch is `od/<groupId>/<label>`, a patch file is
 * `<label>.patch` in the group's folder. Nothing that could start an option or leave a folder.
 */
export const COMMIT = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
export const GROUP_ID = /^\w[\w-]*$/;
export const LABEL = /^[A-Za-z0-9][\w-]*(?:#\d+)?$/;
export const PATCH_FILE = /^[A-Za-z0-9][\w-]*(?:#\d+)?\.patch$/;
/** The branch od keeps a member's result as, and the only kind it ever removes. */
export const keptBranch = (groupId: string, label: string) => `od/${groupId}/${label}`;

const Usage = lazySchema(() =>
  z.object({
    inputTokens: z.number().optional(),
    outputTokens: z.number().optional(),
    costUsd: z.number().optional(),
  }),
);

const Kept = lazySchema(() =>
  z.discriminatedUnion("kind", [
    /** A branch committed on top of `base` (uncommitted and untracked files of the start included). */
    z.object({ kind: z.literal("branch"), branch: z.string(), commit: z.string().regex(COMMIT, "not a commit id") }),
    /** A patch file (relative to the group's folder) against the starting copy of the working directory. */
    z.object({ kind: z.literal("patch"), file: z.string().regex(PATCH_FILE, "not a patch file's name") }),
  ]),
);

export const GroupMember = lazySchema(() =>
  z.object({
    /** Unique in the group: the agent id, then `pi#2`, `pi#3` for repeats. */
    label: z.string().regex(LABEL, "not a label"),
    agent: z.string(),
    runId: z.string().regex(/^[\w-]*$/, "not a run id"),
    /** `queued` and `running` while the compare run is live (group.json is written as it starts and as members end). */
    status: z.enum(["queued", "running", "succeeded", "failed", "cancelled", "interrupted"]),
    durationMs: z.number(),
    usage: Usage.optional(),
    sessionId: z.string().optional(),
    resumable: z.boolean().optional(),
    /** Files the agent changed, with added and removed line counts (binary files count 0). */
    files: z.array(z.object({ path: z.string(), added: z.number(), removed: z.number() })),
    /** Undefined when the agent changed nothing (or its result could not be kept: see `note`). */
    kept: Kept.optional(),
    note: z.string().optional(),
  }),
);
export type GroupMember = z.infer<typeof GroupMember>;

export const Group = lazySchema(() =>
  z
    .object({
      id: z.string().regex(GROUP_ID, "not a run id"),
      cwd: z.string().refine((p) => isAbsolute(p) && !p.includes("\0"), "not an absolute path"),
      prompt: z.string(),
      startedAt: z.number(),
      /** The commit the members' branches start from (git only): HEAD plus the user's uncommitted work, as a commit. */
      base: z.string().regex(COMMIT, "not a commit id").optional(),
      members: z.array(built(GroupMember)),
      /** `running` while an od drives it; `interrupted` when that od died before it ended (recovery says so). Absent in older records: ended. */
      status: z.enum(["running", "succeeded", "failed", "cancelled", "interrupted"]).optional(),
      /** The od that drives it while it runs (recovery ends a group whose od is gone). */
      owner: z.object({ pid: z.number().int() }).optional(),
      /** Set by `od apply`: which member was applied, and when. */
      applied: z.object({ label: z.string().regex(LABEL, "not a label"), at: z.number() }).optional(),
    })
    .superRefine((g, ctx) =>
      g.members.forEach((m, i) => {
        if (m.kept?.kind === "branch" && m.kept.branch !== keptBranch(g.id, m.label))
          ctx.addIssue({ code: "custom", path: ["members", i, "kept", "branch"], message: `not ${keptBranch(g.id, m.label)}` });
      }),
    ),
);
export type Group = z.infer<typeof Group>;

const file = (runsDir: string, id: string) => {
  if (!GROUP_ID.test(id)) throw new Error(`bad run id: ${id}`);
  return join(runsDir, id, "group.json");
};

/** Writes the group atomically (a temporary file renamed into place). */
export function writeGroup(runsDir: string, group: Group): void {
  const path = file(runsDir, group.id);
  try {
    mkdirSync(join(runsDir, group.id), { recursive: true });
    writeFileSync(`${path}.tmp`, `${JSON.stringify(group, null, 2)}\n`);
    renameSync(`${path}.tmp`, path);
  } catch (err) {
    throw storageError(err, `compare run ${group.id}`);
  }
}

/** The group with this id, or undefined when there is none or its file is not a valid group (a list leaves it out). */
export function readGroup(runsDir: string, id: string): Group | undefined {
  try {
    return validGroup(runsDir, id);
  } catch {
    return undefined;
  }
}

/**
 * The group with this id, or undefined when there is none; for acting on it (apply, discard, a diff):
 * a file that is not a valid group (not JSON, or a value od would not have written) is an
 * INVALID_REQUEST that says so, and od acts on none of it.
 */
export function validGroup(runsDir: string, id: string): Group | undefined {
  const path = file(runsDir, id);
  if (!existsSync(path)) return undefined;
  let parsed: ReturnType<typeof Group.safeParse>;
  try {
    parsed = Group.safeParse(JSON.parse(readFileSync(path, "utf8")));
  } catch (err) {
    throw invalid(id, path, (err as Error).message);
  }
  if (parsed.success && parsed.data.id === id) return parsed.data;
  const issue = parsed.error?.issues[0];
  throw invalid(id, path, issue ? `${issue.path.join(".")}: ${issue.message}` : `its id is not ${id}`);
}

const invalid = (id: string, path: string, why: string) =>
  new OdError(
    "INVALID_REQUEST",
    `The record of compare run ${id} is not valid (${why})`,
    `od does not act on it: ${path} was changed outside od. Restore it, or remove the folder to forget the run.`,
  );
