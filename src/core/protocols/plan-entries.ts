/**
 * Todo lists as CLIs write them (Claude's TodoWrite input, Codex's todo_list item, an ACP plan, …)
 * read as od's plan entries: pure and total, whatever the shape.
 */
import type { PlanEntry, PlanPriority, PlanStatus } from "../contract/events.ts";
import { arr, asRecord, str } from "./parse-helpers.ts";

/**
 * A status as CLIs spell it: "completed", "done", "TODO_STATUS_COMPLETED", true (a `completed`
 * flag) are completed; "in_progress", "In Progress", "active", "running" are in progress; anything
 * else is pending. A cancelled step is completed: it is no longer to do (ACP has no fourth state).
 */
export function planStatus(v: unknown): PlanStatus {
  if (v === true) return "completed";
  const s = typeof v === "string" ? v.toLowerCase().replace(/[^a-z]/g, "") : "";
  if (/complet|done|finish|cancel/.test(s)) return "completed";
  if (/progress|active|running|doing|started/.test(s)) return "in_progress";
  return "pending";
}

/** "high", "medium", "low" (any case); undefined for anything else. */
export function planPriority(v: unknown): PlanPriority | undefined {
  const s = str(v)?.toLowerCase();
  return s === "high" || s === "medium" || s === "low" ? s : undefined;
}

/** Where a step's words are, by the keys CLIs use for them. */
const CONTENT_KEYS = ["content", "text", "description", "title", "task", "step"];

/**
 * A todo list (an array of records) as plan entries: each step's words from its first string
 * under `content`, `text`, `description`, `title`, `task` or `step`; its status from `status`,
 * else a `completed` or `done` flag; its priority where it has a known one. Records without
 * words are left out.
 */
export function todoPlan(list: unknown): PlanEntry[] {
  // The whole list on every plan update: one pass, no list per step.
  const entries: PlanEntry[] = [];
  for (const item of arr(list)) {
    if (typeof item === "string") {
      if (item.trim()) entries.push({ content: item.trim(), status: "pending" });
      continue;
    }
    const r = asRecord(item);
    const content = r && wordsOf(r);
    if (!content) continue;
    const status = planStatus(r.status ?? r.completed ?? r.done);
    const priority = planPriority(r.priority);
    entries.push(priority ? { content, status, priority } : { content, status });
  }
  return entries;
}

/** A step's words: the first non-blank string under CONTENT_KEYS, trimmed. */
function wordsOf(r: Record<string, unknown>): string | undefined {
  for (const k of CONTENT_KEYS) {
    const t = str(r[k])?.trim();
    if (t) return t;
  }
  return undefined;
}
