/**
 * The names in od's event model, as plain lists: the event types (the order of the union in
 * events.ts), the kinds of a tool call and the states of a plan entry. It imports nothing, so the
 * web UI bundles it as it is (src/server/ui/stream.js listens to every type from here), and a
 * surface that iterates these lists learns of a new type without a second copy to update.
 */

/** Every event type, in the order of the union. */
export const EVENT_TYPES = [
  "run.started",
  "session",
  "status",
  "text.delta",
  "thinking.delta",
  "plan",
  "tool.call",
  "tool.result",
  "permission.request",
  "permission.decision",
  "usage",
  "raw",
  "error",
  "run.result",
  "run.finished",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * What a tool call does: ACP's ToolKind set without `delete`, `move` (both edits to od) and
 * `switch_mode` (od sets the mode itself). `think` is the agent's own bookkeeping (a plan, a
 * sub-agent's task); `other` is any tool the CLI does not say more of (an MCP server's, say).
 */
export const TOOL_KINDS = ["read", "edit", "execute", "search", "fetch", "think", "other"] as const;
export type ToolKind = (typeof TOOL_KINDS)[number];

/** Where a plan entry is: ACP's PlanEntryStatus. */
export const PLAN_STATUSES = ["pending", "in_progress", "completed"] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

/** How much a plan entry matters, where the agent says: ACP's PlanEntryPriority. */
export const PLAN_PRIORITIES = ["high", "medium", "low"] as const;
export type PlanPriority = (typeof PLAN_PRIORITIES)[number];
