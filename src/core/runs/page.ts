/**
 * The history as the web page reads it (GET /api/runs), and `od runs`: every record, newest first, a conversation
 * by its last turn (continued today, it is today's), filtered by agent, status and text, in pages of
 * `limit`. `next` is the cursor of the page after (`before=`): when and which record the page ended
 * at, so a run started meanwhile shifts nothing and no record is listed twice.
 */

import { OdError } from "../contract/errors.ts";
import { z } from "../contract/zod.ts";
import type { HistoryRecord } from "./history.ts";

const CURSOR = /^(\d+)\.([\w-]+)$/;

/** What GET /api/runs takes. */
export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).catch(50),
  before: z.string().regex(CURSOR, "before must be the `next` of the page before").optional(),
  agent: z.string().min(1).optional(),
  status: z.enum(["running", "queued", "succeeded", "failed", "cancelled", "interrupted"]).optional(),
  q: z.string().min(1).max(500).optional(),
});

export interface HistoryPage {
  runs: HistoryRecord[];
  /** The cursor for the next page; absent on the last. */
  next?: string;
  /** How many records match the filters, on every page. */
  total: number;
  /** Every agent the history holds (for a filter to offer). */
  agents: string[];
}

/** When a record was last active: a conversation's last turn, else its start. */
const lastActive = (r: HistoryRecord) => (r.kind === "thread" ? (r.turns.at(-1)?.startedAt ?? r.startedAt) : r.startedAt);
const idOf = (r: HistoryRecord) => (r.kind === "compare" ? r.groupId : r.kind === "thread" ? r.threadId : r.runId);
/** Newest first; the same instant, the greater id first. */
const newer = (a: HistoryRecord, b: HistoryRecord) => lastActive(b) - lastActive(a) || (idOf(b) < idOf(a) ? -1 : idOf(b) > idOf(a) ? 1 : 0);

const agentsOf = (r: HistoryRecord): string[] =>
  (r.kind === "compare" ? r.members.map((m) => m.agent) : [r.agent]).filter((a): a is string => Boolean(a));

function textOf(r: HistoryRecord): string {
  const prompts = r.kind === "thread" ? r.turns.map((t) => t.prompt) : [r.prompt];
  return [...prompts, r.cwd, ...agentsOf(r), idOf(r)].filter(Boolean).join("\n").toLowerCase();
}

function matches(r: HistoryRecord, q: z.output<typeof PageQuery>): boolean {
  if (q.agent && !agentsOf(r).includes(q.agent)) return false;
  if (q.status && !(r.status === q.status || (q.status === "running" && r.status === "queued"))) return false;
  return !q.q || textOf(r).includes(q.q.toLowerCase());
}

/** One page of `records` (the whole history, any order) for `query`; INVALID_REQUEST for a query it cannot read. */
export function historyPage(records: HistoryRecord[], query: Record<string, unknown>): HistoryPage {
  const parsed = PageQuery.safeParse(query);
  if (!parsed.success)
    throw new OdError(
      "INVALID_REQUEST",
      z.prettifyError(parsed.error),
      "GET /api/runs?limit=&before=&agent=&status=&q=, or od runs --limit --before --agent --status --search",
    );
  const q = parsed.data;
  const matching = records.filter((r) => matches(r, q)).sort(newer);
  const [, at, id] = q.before ? CURSOR.exec(q.before)! : [];
  const older = (r: HistoryRecord) => at === undefined || lastActive(r) < Number(at) || (lastActive(r) === Number(at) && idOf(r) < id!);
  const from = matching.findIndex(older);
  const runs = from < 0 ? [] : matching.slice(from, from + q.limit);
  const last = runs.at(-1);
  const more = from >= 0 && from + q.limit < matching.length;
  return {
    runs,
    next: more && last ? `${lastActive(last)}.${idOf(last)}` : undefined,
    total: matching.length,
    agents: [...new Set(records.flatMap(agentsOf))].sort(),
  };
}
