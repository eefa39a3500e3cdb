// @ts-check
// The Usage view's figures as tables: totals per agent (always shown), and each day's and each
// recent run's figures (the charts' fallback, for a screen reader or a keyboard), with the numbers'
// formats the charts share.
import { took, when } from "./history-entry.js";
import { el } from "./tool-card.js";

/** @typedef {import("../../core/runs/usage.ts").UsageReport} UsageReport */
/** @typedef {import("../../core/runs/usage.ts").UsageFigures} UsageFigures */

/** "850", "12.3k", "150k", "1.2M". */
export function tokens(/** @type {number} */ n) {
  const short = (/** @type {number} */ v, /** @type {string} */ unit) => `${v.toFixed(v < 100 ? 1 : 0).replace(/\.0$/, "")}${unit}`;
  if (n < 1000) return String(Math.round(n));
  if (n < 999_500) return short(n / 1000, "k");
  return short(n / 1_000_000, "M");
}

/** "$0", "$0.0042", "$3.20". */
export function money(/** @type {number} */ usd) {
  if (usd === 0) return "$0";
  return usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/**
 * A table: a caption, a header row, rows of cells (the first cell of each row heads it).
 * @param {string} caption
 * @param {string[]} head
 * @param {string[][]} rows
 * @param {string} id
 */
function table(caption, head, rows, id) {
  const numeric = (/** @type {number} */ i) => (i > 0 ? "num" : "");
  // A table wider than a phone scrolls on its own: a region the keyboard can reach and scroll.
  const wrap = el(
    "div",
    { className: "table-wrap", tabIndex: 0 },
    el(
      "table",
      { className: "usage-table", id },
      el("caption", { textContent: caption }),
      el("thead", {}, el("tr", {}, ...head.map((h, i) => el("th", { scope: "col", className: numeric(i), textContent: h })))),
      el(
        "tbody",
        {},
        ...rows.map((cells) =>
          el(
            "tr",
            {},
            ...cells.map((c, i) => (i === 0 ? el("th", { scope: "row", textContent: c }) : el("td", { className: "num", textContent: c }))),
          ),
        ),
      ),
    ),
  );
  wrap.setAttribute("role", "region");
  wrap.setAttribute("aria-label", caption);
  return wrap;
}

const cost = (/** @type {UsageFigures} */ f) => (f.priced ? money(f.costUsd) : "—");

/** Runs, tokens, cost and time per agent, and their total. */
export function agentTable(/** @type {UsageReport} */ r) {
  const row = (/** @type {string} */ name, /** @type {UsageFigures} */ f) => [
    name,
    String(f.runs),
    tokens(f.inputTokens),
    tokens(f.outputTokens),
    cost(f),
    took(f.durationMs) || "0 ms",
  ];
  const rows = r.agents.map((a) => row(a, /** @type {UsageFigures} */ (r.byAgent[a])));
  return table(
    `Per agent, the last ${r.days} days (tokens in and out)`,
    ["Agent", "Runs", "In", "Out", "Cost", "Time"],
    [...rows, row("Total", r.total)],
    "usage-agents",
  );
}

/** Each day that had runs, each agent's tokens, cost and runs that day. */
export function dayTable(/** @type {UsageReport} */ r) {
  const rows = r.daily
    .filter((d) => Object.keys(d.agents).length)
    .reverse()
    .flatMap((d) =>
      r.agents.flatMap((a) => {
        const f = d.agents[a];
        const day = new Date(d.start).toLocaleDateString([], { weekday: "short", day: "numeric", month: "short" });
        return f ? [[`${day}, ${a}`, String(f.runs), tokens(f.inputTokens), tokens(f.outputTokens), cost(f)]] : [];
      }),
    );
  return table("Per day and agent, the latest first (tokens in and out)", ["Day, agent", "Runs", "In", "Out", "Cost"], rows, "usage-days");
}

/** The latest runs' times, the latest first. */
export function runTable(/** @type {UsageReport} */ r) {
  const rows = [...r.recent].reverse().map((x) => [`${when(x.startedAt)}, ${x.agent}`, took(x.durationMs), x.status, tokens(x.tokens)]);
  return table("The latest runs, the latest first", ["Run", "Time", "Status", "Tokens"], rows, "usage-runs");
}
