// @ts-check
// The history, newest first, in pages (GET /api/runs?limit=&before=): runs, conversations and compare
// runs, one entry each, filtered by agent, status and text. "Show older" adds the next page; a reload
// (a run started or ended) keeps as many entries as were shown.
import { api } from "./api.js";
import { entry } from "./history-entry.js";
import { $ } from "./page.js";
import { el } from "./tool-card.js";

/** @typedef {import("../../core/runs/history.ts").HistoryRecord} HistoryRecord */
/** @typedef {import("../../core/runs/page.ts").HistoryPage} HistoryPage */

const PAGE = 20;

/** @type {{ shown: HistoryRecord[], next?: string, asked: number, onOpen: (r: HistoryRecord) => void, current?: string }} */
const state = { shown: [], asked: 0, onOpen: () => {} };

/** The filters as a query string (with `extra`). */
function query(/** @type {Record<string, string>} */ extra) {
  const params = new URLSearchParams(extra);
  for (const [key, id] of /** @type {const} */ ([
    ["agent", "history-agent"],
    ["status", "history-status"],
    ["q", "history-q"],
  ])) {
    const value = $(id).value.trim();
    if (value) params.set(key, value);
  }
  return params.toString();
}

const filtered = () => Boolean($("history-agent").value || $("history-status").value || $("history-q").value.trim());

/** Shows the page's answer; `more`: added below what is shown. */
function render(/** @type {HistoryPage} */ page, more = false) {
  state.shown = more ? [...state.shown, ...page.runs] : page.runs;
  state.next = page.next;
  $("runs").replaceChildren(...state.shown.map((r) => entry(r, state.onOpen, state.current)));
  $("runs-empty").hidden = state.shown.length > 0;
  $("runs-empty").textContent = filtered() ? "No run matches these filters." : "No runs yet.";
  $("runs-more").hidden = !page.next;
  $("runs-count").textContent = page.total > state.shown.length ? `${state.shown.length} of ${page.total} shown` : "";
  $("history-filters").hidden = !filtered() && page.total === 0;
  const agents = $("history-agent");
  const chosen = agents.value;
  agents.replaceChildren(
    el("option", { value: "", textContent: "any" }),
    ...page.agents.map((a) => el("option", { value: a, textContent: a })),
  );
  agents.value = page.agents.includes(chosen) ? chosen : "";
}

/** Loads the newest entries again (as many as shown, at least a page), marking the one holding `current`. */
export async function loadHistory(/** @type {string | undefined} */ current) {
  state.current = current;
  const asked = ++state.asked;
  /** @type {HistoryPage} */
  const page = await api(`/runs?${query({ limit: String(Math.min(200, Math.max(PAGE, state.shown.length))) })}`);
  if (asked === state.asked) render(page);
}

/** The next page, below what is shown. */
async function older() {
  if (!state.next) return;
  const asked = ++state.asked;
  $("runs-more").disabled = true;
  try {
    /** @type {HistoryPage} */
    const page = await api(`/runs?${query({ limit: String(PAGE), before: state.next })}`);
    if (asked !== state.asked) return;
    const from = state.shown.length;
    render(page, true);
    $("runs").children[from]?.querySelector("button")?.focus(); // the keyboard goes on where the new entries start
  } finally {
    $("runs-more").disabled = false;
  }
}

/** Wires the filters and "Show older"; `onOpen(record)` when an entry is chosen. */
export function initHistory(/** @type {(record: HistoryRecord) => void} */ onOpen) {
  state.onOpen = onOpen;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let typing;
  const reload = () => {
    state.shown = []; // a new filter starts from its first page
    loadHistory(state.current).catch(() => {});
  };
  $("history-agent").addEventListener("change", reload);
  $("history-status").addEventListener("change", reload);
  $("history-q").addEventListener("input", () => {
    clearTimeout(typing);
    typing = setTimeout(reload, 250);
  });
  $("history-filters").addEventListener("submit", (e) => {
    e.preventDefault();
    reload();
  });
  $("runs-more").addEventListener("click", () => older().catch(() => {}));
}
