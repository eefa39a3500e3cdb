import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { storageError } from "./fault.ts";

/**
 * A compare run (several agents, or one agent repeated, on the same task) as it is kept:
 * `<runs>/<groupId>/group.json`, beside the member runs' own logs (`<runs>/<runId>/`). Each
 * member's result is kept as a git branch `od/<groupId>/<label>` on top of the user's starting
 * point, or, outside a git repository, as a patch file in the group's folder. `od apply`,
 * `od discard`, `od runs` and the server read it from here.
 */

const Usage = z.object({
  inputTokens: z.number().optional(),
  outputTokens: z.number().optional(),
  costUsd: z.number().optional(),
});

const Kept = z.discriminatedUnion("kind", [
  /** A branch committed on top of `base` (uncommitted and untracked files of the start included). */
  z.object({ kind: z.literal("branch"), branch: z.string(), commit: z.string() }),
  /** A patch file (relative to the group's folder) against the starting copy of the working directory. */
  z.object({ kind: z.literal("patch"), file: z.string() }),
]);

export const GroupMember = z.object({
  /** Unique in the group: the agent id, then `pi#2`, `pi#3` for repeats. */
  label: z.string(),
  agent: z.string(),
  runId: z.string(),
  status: z.enum(["succeeded", "failed", "cancelled"]),
  durationMs: z.number(),
  usage: Usage.optional(),
  sessionId: z.string().optional(),
  resumable: z.boolean().optional(),
  /** Files the agent changed, with added and removed line counts (binary files count 0). */
  files: z.array(z.object({ path: z.string(), added: z.number(), removed: z.number() })),
  /** Undefined when the agent changed nothing (or its result could not be kept: see `note`). */
  kept: Kept.optional(),
  note: z.string().optional(),
});
export type GroupMember = z.infer<typeof GroupMember>;

export const Group = z.object({
  id: z.string(),
  cwd: z.string(),
  prompt: z.string(),
  startedAt: z.number(),
  /** The commit the members' branches start from (git only): HEAD plus the user's uncommitted work, as a commit. */
  base: z.string().optional(),
  members: z.array(GroupMember),
  /** Set by `od apply`: which member was applied, and when. */
  applied: z.object({ label: z.string(), at: z.number() }).optional(),
});
export type Group = z.infer<typeof Group>;

const file = (runsDir: string, id: string) => {
  if (!/^[\w-]+$/.test(id)) throw new Error(`bad run id: ${id}`);
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

/** The group with this id, or undefined when there is none (or its file is not a group). */
export function readGroup(runsDir: string, id: string): Group | undefined {
  const path = file(runsDir, id);
  if (!existsSync(path)) return undefined;
  try {
    const parsed = Group.safeParse(JSON.parse(readFileSync(path, "utf8")));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
