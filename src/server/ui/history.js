// @ts-check
// The history, newest first (GET /api/runs): runs, conversations and compare runs, one entry each.
import { entry } from "./history-entry.js";
import { $ } from "./page.js";

/** @typedef {import("../../core/runs/history.ts").HistoryRecord} HistoryRecord */

/**
 * Shows `runs`; `onOpen(record)` when one is chosen; the entry holding `current` is marked.
 * @param {HistoryRecord[]} runs
 * @param {(record: HistoryRecord) => void} onOpen
 * @param {string | undefined} current
 */
export function renderHistory(runs, onOpen, current) {
  $("runs").replaceChildren(...runs.map((r) => entry(r, onOpen, current)));
  $("runs-empty").hidden = runs.length > 0;
}
