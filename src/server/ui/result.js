// @ts-check
// The end of a run: the files it changed with their diff, the totals when known, and how it finished.
import { duration, el } from "./tool-card.js";

/** @typedef {import("../../core/contract/events.ts").BodyOf<"run.result">} RunResult */
/** @typedef {import("../../core/contract/events.ts").BodyOf<"run.finished">} RunFinished */

const DIFF_LINE_CAP = 4000;

function lineClass(/** @type {string} */ line) {
  if (line.startsWith("+++") || line.startsWith("---")) return "diff-file";
  if (line.startsWith("diff ") || line.startsWith("index ") || line.startsWith("new file") || line.startsWith("deleted file")) {
    return "diff-meta";
  }
  if (line.startsWith("@@")) return "diff-hunk";
  if (line.startsWith("+")) return "diff-add";
  if (line.startsWith("-")) return "diff-del";
  return "diff-ctx";
}

function fillDiff(/** @type {HTMLElement} */ pre, /** @type {string[]} */ lines) {
  pre.replaceChildren(...lines.map((line) => el("span", { className: lineClass(line), textContent: `${line}\n` })));
}

/** A unified diff as a <pre>, one span per line (added / removed / hunk classes), all text as textContent. */
export function renderDiff(/** @type {string} */ diff) {
  const lines = diff.replace(/\n$/, "").split("\n");
  const pre = el("pre", { className: "diff", tabIndex: 0, role: "region", ariaLabel: "Diff" });
  fillDiff(pre, lines.slice(0, DIFF_LINE_CAP));
  if (lines.length <= DIFF_LINE_CAP) return pre;
  const more = el("button", {
    type: "button",
    className: "show-all",
    textContent: `Show all ${lines.length.toLocaleString("en")} lines`,
    onclick: () => {
      fillDiff(pre, lines);
      more.remove();
    },
  });
  return el("div", { className: "capped" }, pre, more);
}

/**
 * @param {unknown} n
 * @returns {n is number}
 */
const known = (n) => typeof n === "number" && Number.isFinite(n);

/** "1,234 in · 56 out · $0.0123" from the figures the agent reported; "" when it reported none. */
export function totalsText(/** @type {RunResult["usage"]} */ usage) {
  if (!usage) return "";
  const parts = [];
  if (known(usage.inputTokens)) parts.push(`${usage.inputTokens.toLocaleString("en")} in`);
  if (known(usage.outputTokens)) parts.push(`${usage.outputTokens.toLocaleString("en")} out`);
  if (known(usage.costUsd)) parts.push(`$${usage.costUsd.toFixed(4)}`);
  // All zero is what an agent that counted nothing (a cancelled run) reports: not a figure worth showing.
  if ([usage.inputTokens, usage.outputTokens, usage.costUsd].every((n) => !n)) return "";
  return parts.join(" · ");
}

function filesPanel(/** @type {string[]} */ files, /** @type {string | undefined} */ diff) {
  const list = el("ul", { className: "files" }, ...files.map((f) => el("li", {}, el("code", { textContent: f }))));
  const noun = files.length === 1 ? "file" : "files";
  return el(
    "section",
    { className: "files-changed", ariaLabel: "Files changed" },
    el("h3", { textContent: `${files.length} ${noun} changed` }),
    list,
    diff ? renderDiff(diff) : null,
  );
}

/** The panel for a `run.result` event (null when there is nothing to show). */
export function renderResult(/** @type {RunResult} */ e) {
  const files = Array.isArray(e.files) ? e.files : [];
  const totals = totalsText(e.usage);
  if (files.length === 0 && !e.diff && !totals && !e.note) return null;
  return el(
    "section",
    { className: "result", ariaLabel: "Result" },
    files.length || e.diff ? filesPanel(files, e.diff) : null,
    e.note ? el("p", { className: "result-note", textContent: e.note }) : null,
    totals ? el("p", { className: "totals", textContent: totals, title: "tokens in · tokens out · cost" }) : null,
  );
}

/** The status line for `run.finished`: how it ended, how long it took, its session. */
export function renderFinished(/** @type {RunFinished} */ e) {
  const line = el("p", { className: `finished finished-${e.status}` });
  line.append(el("strong", { textContent: e.status }), ` in ${duration(e.durationMs ?? 0)}`);
  if (e.status === "failed" && e.exitCode !== null && e.exitCode !== undefined) line.append(` (exit ${e.exitCode})`);
  if (e.signal) line.append(` (${e.signal})`);
  if (e.sessionId) line.append(" · session ", el("code", { textContent: e.sessionId }));
  return line;
}
