// @ts-check
// One entry of the history: agent, when it started, where, how it went, how long, tokens. Each is a
// button (Enter or Space opens it): opening a run replays it and puts its settings back in the form.
// A conversation is one entry (its turns), and so is a compare run (its members).
import { targetName } from "./form.js";
import { el } from "./tool-card.js";

/** @typedef {import("../../core/runs/history.ts").HistoryRecord} HistoryRecord a run, or a compare run as one record */

/** "14:03" today, "3 Mar 14:03" before. */
export function when(/** @type {number | undefined} */ ms) {
  if (!ms) return "";
  const d = new Date(ms);
  const time = d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  return d.toDateString() === new Date().toDateString() ? time : `${d.toLocaleDateString([], { day: "numeric", month: "short" })} ${time}`;
}

/** "850 ms", "12.3 s", "4 min 05 s". */
export function took(/** @type {number | undefined} */ ms) {
  if (ms === undefined) return "";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${String(Math.round((ms % 60_000) / 1000)).padStart(2, "0")} s`;
}

/** "1.2k tokens", when the run reported any. */
function tokens(/** @type {HistoryRecord["usage"]} */ usage) {
  const n = (usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0);
  if (!n) return "";
  return `${n >= 1000 ? `${(n / 1000).toFixed(1)}k` : n} tokens`;
}

/** The last two parts of a path: where a run was, short enough for a list. */
function shortPath(/** @type {string | undefined} */ path) {
  if (!path) return "";
  const parts = path.split(/[\\/]/).filter(Boolean);
  return parts.length > 2 ? `…/${parts.slice(-2).join("/")}` : path;
}

/** The runs a record holds: itself, a conversation's turns, a compare run's members. */
const runIds = (/** @type {HistoryRecord} */ r) =>
  r.kind === "thread" ? r.turns.map((t) => t.runId) : r.kind === "compare" ? r.members.map((m) => m.runId) : [r.runId];

/**
 * The entry for `record`, a list item holding its button; marked when it holds the run shown (`current`).
 * @param {HistoryRecord} record
 * @param {(record: HistoryRecord) => void} onOpen
 * @param {string | undefined} current
 */
export function entry(record, onOpen, current) {
  // A compare run is one entry: its members' labels where a run shows its agent.
  const run =
    record.kind === "compare"
      ? { ...record, runId: record.groupId, agent: `compare: ${record.members.map((m) => m.label).join(", ")}`, on: undefined }
      : record.kind === "thread"
        ? {
            ...record,
            runId: record.threadId,
            agent: `${record.agent ?? "?"} · ${record.turns.length} turns`,
            startedAt: record.turns.at(-1)?.startedAt ?? record.startedAt, // listed by its last turn (GET /api/runs)
          }
        : record;
  const facts = [when(run.startedAt), took(run.durationMs), tokens(run.usage)].filter(Boolean).join(" · ");
  const button = el(
    "button",
    {
      type: "button",
      className: "run",
      title: `${run.prompt ?? ""}\n${run.on ? `${run.on} ` : ""}${run.cwd ?? ""}`,
      onclick: () => onOpen(record),
    },
    el(
      "span",
      { className: "run-head" },
      el("strong", { textContent: run.agent ?? "?" }),
      run.on && el("span", { className: "tag", textContent: `on ${targetName(run.on)}`, title: run.on }),
      el("span", { className: `badge ${run.status}`, textContent: run.status }),
    ),
    el("span", { className: "run-prompt", textContent: (run.prompt ?? "").slice(0, 80) || "(no prompt)" }),
    el("span", { className: "run-facts", textContent: facts }),
    run.cwd && el("span", { className: "run-cwd", textContent: shortPath(run.cwd) }),
  );
  if (current && runIds(record).includes(current)) button.setAttribute("aria-current", "true");
  return el("li", {}, button);
}
