import { Hono } from "hono";
import { OdError } from "../../core/contract/errors.ts";
import { z } from "../../core/contract/zod.ts";
import type { Runs } from "../../core/runs/service.ts";
import type { LogCursor } from "../../core/store/log-read.ts";
import { applyResult, discardGroup, loadGroup, memberPatch } from "../../core/workspace/apply.ts";

const ApplyBody = z.object({ label: z.string().min(1).max(200).optional() });

/** A compare run's members with their diffs, when `id` names one; else undefined. */
async function groupDiffs(runsDir: string, id: string) {
  let group: ReturnType<typeof loadGroup>;
  try {
    group = loadGroup(runsDir, id);
  } catch (err) {
    if (err instanceof OdError && err.code === "RUN_NOT_FOUND") return undefined;
    throw err; // a record od would not have written is refused, not read as a single run
  }
  const members = await Promise.all(group.members.map(async (m) => ({ ...m, diff: (await memberPatch(runsDir, group, m)) ?? null })));
  return { groupId: group.id, cwd: group.cwd, base: group.base, applied: group.applied, members };
}

/** A single run's files and diff, from the run.result in its log. */
function runDiff(runs: Runs, runId: string) {
  let cursor: LogCursor = { seq: -1 };
  for (;;) {
    const batch = runs.read(runId, cursor, 1024 * 1024);
    for (const e of batch.events)
      if (e.type === "run.result") {
        const result = JSON.parse(e.json) as { files: string[]; diff?: string };
        return { runId, files: result.files, diff: result.diff ?? null };
      }
    if (!batch.events.length) break;
    cursor = batch.cursor;
  }
  throw new OdError("INVALID_REQUEST", `Run ${runId} has no result yet`, "A run's result comes just before it finishes.");
}

/**
 * What runs changed, for the web UI: `GET /runs/:id/diff` (a compare run's members' diffs, or one
 * run's diff), and `POST /runs/:id/apply` with `{label}`, which applies a compare run member's
 * result to the working tree under the same rules as `od apply` (refused, nothing changed, on a conflict),
 * and `POST /runs/:id/discard`, which removes a compare run's kept results as `od discard` does (its
 * branches and patches; what could not be removed is in `notes`).
 */
export function resultRoutes(runs: Runs) {
  const runsDir = () => runs.deps.log.dir;
  return new Hono()
    .get("/runs/:id/diff", async (c) => {
      const id = c.req.param("id");
      return c.json((await groupDiffs(runsDir(), id)) ?? runDiff(runs, id));
    })
    .post("/runs/:id/apply", async (c) => {
      const parsed = ApplyBody.safeParse(await c.req.json().catch(() => undefined));
      if (!parsed.success)
        throw new OdError("INVALID_REQUEST", 'Send {"label": "<member>"} (the label may be left out when one member changed files)');
      return c.json(await applyResult(runsDir(), c.req.param("id"), parsed.data.label));
    })
    .post("/runs/:id/discard", async (c) => c.json(await discardGroup(runsDir(), c.req.param("id"))));
}
