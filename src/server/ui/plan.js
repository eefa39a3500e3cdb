// @ts-check
// An agent's plan as a checklist: each entry with its state as a mark and in words (for screen readers),
// the count done in the heading. Everything here comes from the agent: it is set as textContent.
import { el } from "./tool-card.js";

/** @typedef {import("../../core/contract/events.ts").BodyOf<"plan">} PlanEvent */
/** @typedef {PlanEvent["entries"][number]} PlanEntry */

/** @type {Record<PlanEntry["status"], { mark: string, words: string }>} */
const STATES = {
  completed: { mark: "✓", words: "done" },
  in_progress: { mark: "▸", words: "in progress" },
  pending: { mark: "○", words: "to do" },
};

/** @param {PlanEntry} entry */
function item(entry) {
  const state = STATES[entry.status] ?? STATES.pending;
  const li = el(
    "li",
    { className: "plan-entry" },
    el("span", { className: "plan-mark", ariaHidden: "true", textContent: state.mark }),
    el("span", { className: "plan-text", textContent: entry.content }),
    el("span", { className: "sr-only", textContent: ` (${state.words}${entry.priority ? `, ${entry.priority} priority` : ""})` }),
  );
  li.dataset.status = entry.status;
  if (entry.priority) li.dataset.priority = entry.priority;
  return li;
}

/** The checklist for a `plan` event: a later plan replaces it (transcript.js keeps one a sub-agent). */
export function renderPlan(/** @type {PlanEvent} */ e) {
  const done = e.entries.filter((x) => x.status === "completed").length;
  const count = e.entries.length ? `${done} of ${e.entries.length} done` : "no steps";
  return el(
    "section",
    { className: "plan", ariaLabel: "Plan" },
    el("h3", { className: "plan-head" }, "Plan ", el("span", { className: "plan-count", textContent: count })),
    e.entries.length ? el("ul", { className: "plan-list" }, ...e.entries.map(item)) : null,
  );
}
