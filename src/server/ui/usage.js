// @ts-check
// The Usage view (#usage): what the agents used over the last days, drawn from GET /api/usage. Tokens
// per day per agent as stacked bars, cost per day as a line (when an agent reported one), the time of
// the latest runs as bars, totals per agent as a table, and every figure as a table too (under
// "Show as a table"). mountUsage() adds the view and a link to it in the page's header.
import { api } from "./api.js";
import { lineChart, niceTicks, stackedBars } from "./chart.js";
import { took, when } from "./history-entry.js";
import { el } from "./tool-card.js";
import { agentTable, dayTable, money, runTable, tokens } from "./usage-tables.js";

/** @typedef {import("../../core/runs/usage.ts").UsageReport} UsageReport */
/** @typedef {import("../../core/runs/usage.ts").UsageDay} UsageDay */

const CHOICES = [7, 30, 90];
/** @type {{ days: number, report?: UsageReport, width: number, view?: HTMLElement, body?: HTMLElement, asked: number }} */
const state = { days: 30, width: 0, asked: 0 };

/** The view (hidden until the address says #usage) and the header's links between it and the workbench. */
export function mountUsage() {
  const link = (/** @type {string} */ href, /** @type {string} */ text) => el("a", { href, textContent: text });
  const nav = el("nav", { className: "views" }, link("#", "Workbench"), link("#usage", "Usage"));
  nav.setAttribute("aria-label", "Views");
  document.querySelector("header")?.append(nav);
  // The heading and the period's choice stay; what is below them is drawn for each report.
  const title = el("h2", { id: "usage-title", textContent: "Usage", tabIndex: -1 });
  state.body = el("div", { id: "usage-body" });
  const view = el(
    "main",
    { id: "usage", className: "usage", hidden: true },
    el("div", { className: "usage-head" }, title, period()),
    state.body,
  );
  view.setAttribute("aria-labelledby", "usage-title");
  document.getElementById("workbench")?.after(view);
  state.view = view;
  // Opened by a link (not as the page loads), the view takes the focus: a screen reader starts at its heading.
  window.addEventListener("hashchange", () => route() && title.focus());
  // Drawn again at the width it has: real pixels keep the labels readable on a phone.
  let timer = 0;
  new ResizeObserver(() => {
    clearTimeout(timer);
    timer = window.setTimeout(() => {
      if (state.report && !view.hidden && Math.abs(view.clientWidth - state.width) > 8) draw(state.report);
    }, 100);
  }).observe(view);
  route();
}

/** #usage shows the view (loading it afresh), anything else the workbench; whether the view shows. */
function route() {
  const view = /** @type {HTMLElement} */ (state.view);
  const fresh = document.getElementById("fresh-link");
  if (fresh && !fresh.hidden) return false; // the page's link is no longer valid: nothing else shows
  const on = location.hash === "#usage";
  view.hidden = !on;
  const workbench = document.getElementById("workbench");
  if (workbench) workbench.hidden = on;
  for (const a of document.querySelectorAll("nav.views a"))
    if ((a.getAttribute("href") === "#usage") === on) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  if (on) load().catch(() => {});
  return on;
}

/** The report for the period chosen; only the latest one asked for is drawn (an earlier answer may come later). */
async function load() {
  const body = /** @type {HTMLElement} */ (state.body);
  const asked = ++state.asked;
  if (!state.report) body.replaceChildren(el("p", { className: "muted", textContent: "Loading…" }));
  try {
    const report = await api(`/usage?days=${state.days}&tz=${new Date().getTimezoneOffset()}`);
    if (asked === state.asked) draw(report);
  } catch (err) {
    if (asked !== state.asked) return;
    if (/** @type {{ status?: number }} */ (err).status === 401) {
      const view = /** @type {HTMLElement} */ (state.view);
      view.hidden = true; // the page says how to get a fresh link (banner.js)
      return;
    }
    const message = `Could not load the usage: ${/** @type {Error} */ (err).message}`;
    body.replaceChildren(el("p", { className: "start-error", role: "alert", textContent: message }));
  }
}

/** The period's choice: 7, 30 or 90 days. */
function period() {
  const select = el(
    "select",
    { id: "usage-days" },
    ...CHOICES.map((d) => el("option", { value: String(d), textContent: `Last ${d} days`, selected: d === state.days })),
  );
  select.addEventListener("change", () => {
    state.days = Number(select.value);
    load().catch(() => {});
  });
  return el("label", { className: "inline" }, "Period", select);
}

/** The view below its heading, for a report. */
function draw(/** @type {UsageReport} */ report) {
  const view = /** @type {HTMLElement} */ (state.view);
  const body = /** @type {HTMLElement} */ (state.body);
  state.report = report;
  state.width = view.clientWidth;
  const width = Math.max(280, Math.min(view.clientWidth - 2, 1100));
  if (!report.total.runs) {
    body.replaceChildren(
      el("p", { className: "usage-empty", textContent: `No runs in the last ${report.days} days: the charts fill in as agents run.` }),
    );
    return;
  }
  const t = report.total;
  const summary = `${t.runs} run${t.runs === 1 ? "" : "s"} by ${report.agents.length} agent${report.agents.length === 1 ? "" : "s"}: ${tokens(t.inputTokens + t.outputTokens)} tokens (${tokens(t.inputTokens)} in, ${tokens(t.outputTokens)} out), ${t.priced ? `${money(t.costUsd)} reported by ${t.priced} of them` : "no cost reported"}, ${took(t.durationMs)} of running.`;
  body.replaceChildren(
    el("p", { id: "usage-summary", textContent: summary }),
    legend(report.agents),
    t.inputTokens + t.outputTokens
      ? figure("Tokens per day", tokenChart(report, width))
      : el("p", { className: "muted small", textContent: "No agent reported its tokens in this period." }),
    t.priced
      ? figure("Cost per day (as agents reported it)", costChart(report, width))
      : el("p", { className: "muted small", textContent: "No agent reported a cost in this period." }),
    figure(
      `Time per run, the latest ${report.recent.length}`,
      timeChart(report, width),
      "The oldest on the left. Outlined: a run that did not succeed.",
    ),
    agentTable(report),
    el("details", { className: "more" }, el("summary", { textContent: "Show as a table" }), dayTable(report), runTable(report)),
  );
}

const figure = (/** @type {string} */ caption, /** @type {Node} */ chart, /** @type {string} */ note = "") =>
  el(
    "figure",
    { className: "usage-chart" },
    el("figcaption", { textContent: caption }),
    chart,
    note && el("p", { className: "muted small", textContent: note }),
  );

/** The agents' colours, named (the charts' marks use the same classes). */
function legend(/** @type {string[]} */ agents) {
  const list = el(
    "ul",
    { className: "legend", id: "usage-legend" },
    ...agents.map((a, i) => el("li", {}, el("span", { className: `swatch s${i % 8}` }), a)),
  );
  list.setAttribute("aria-label", "Agents");
  return list;
}

const dayLabel = (/** @type {UsageDay} */ d) => new Date(d.start).toLocaleDateString([], { day: "numeric", month: "short" });

function tokenChart(/** @type {UsageReport} */ r, /** @type {number} */ width) {
  const columns = r.daily.map((d) =>
    r.agents.flatMap((agent, series) => {
      const f = d.agents[agent];
      if (!f) return [];
      const cost = f.priced ? `, ${money(f.costUsd)}` : "";
      const title = `${agent}, ${dayLabel(d)}: ${tokens(f.inputTokens + f.outputTokens)} tokens (${tokens(f.inputTokens)} in, ${tokens(f.outputTokens)} out)${cost}, ${f.runs} run${f.runs === 1 ? "" : "s"}`;
      return [{ series, value: f.inputTokens + f.outputTokens, title }];
    }),
  );
  const per = r.agents.map((a) => `${a} ${tokens((r.byAgent[a]?.inputTokens ?? 0) + (r.byAgent[a]?.outputTokens ?? 0))}`).join(", ");
  const ariaLabel = `Tokens per day over the last ${r.days} days, stacked by agent: ${tokens(r.total.inputTokens + r.total.outputTokens)} in all (${per}).`;
  return stackedBars({
    width,
    height: 220,
    columns,
    labels: r.daily.map(dayLabel),
    format: tokens,
    ticks: (max) => niceTicks(max, 4, 1),
    ariaLabel,
  });
}

function costChart(/** @type {UsageReport} */ r, /** @type {number} */ width) {
  const points = r.daily.map((d) => {
    const cost = Object.values(d.agents).reduce((n, f) => n + f.costUsd, 0);
    return { value: cost, title: `${dayLabel(d)}: ${money(cost)}` };
  });
  const busiest = points.reduce((a, b) => (b.value > a.value ? b : a));
  const ariaLabel = `Cost per day over the last ${r.days} days: ${money(r.total.costUsd)} in all, the most on ${busiest.title}.`;
  return lineChart({ width, height: 160, points, labels: r.daily.map(dayLabel), format: money, ariaLabel });
}

/** Durations on a scale of seconds, or of minutes once runs take more than two. */
function timeTicks(/** @type {number} */ max) {
  const unit = max >= 120_000 ? 60_000 : 1000;
  return niceTicks(max / unit).map((t) => t * unit);
}

const tickTime = (/** @type {number} */ ms) =>
  ms === 0 ? "0" : ms % 60_000 === 0 && ms >= 60_000 ? `${ms / 60_000} min` : took(ms).replace(".0 s", " s");

function timeChart(/** @type {UsageReport} */ r, /** @type {number} */ width) {
  const columns = r.recent.map((run) => [
    {
      series: Math.max(0, r.agents.indexOf(run.agent)),
      value: run.durationMs,
      title: `${run.agent}, ${when(run.startedAt)}: ${took(run.durationMs)}, ${run.status}${run.tokens ? `, ${tokens(run.tokens)} tokens` : ""}`,
      className: run.status === "succeeded" ? undefined : "hollow",
    },
  ]);
  const times = r.recent.map((x) => x.durationMs).sort((a, b) => a - b);
  const median = times[Math.floor((times.length - 1) / 2)] ?? 0;
  const ariaLabel = `Time of the latest ${r.recent.length} runs, oldest first: ${took(median)} for the middle one, ${took(times[times.length - 1])} the longest.`;
  return stackedBars({ width, height: 180, columns, labels: r.recent.map(() => ""), format: tickTime, ticks: timeTicks, ariaLabel });
}
