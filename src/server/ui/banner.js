// @ts-check
// What the page says about its connection: a banner while a stream reconnects, once the server is
// gone or cannot be reached (cleared as soon as it answers again), and, when the server refuses this
// page's token (it restarted: a new launch has a new token), a page of its own that says how to get a
// fresh link, what the user typed kept for it (draft.js).
import { saveDraft } from "./draft.js";
import { $ } from "./page.js";

/** @typedef {"reconnecting" | "gone" | "offline" | "live"} BannerState */

/** @type {Partial<Record<BannerState, string>>} */
const MESSAGES = {
  reconnecting: "Reconnecting to the od server…",
  gone: "The od server is gone: start it again with `od serve` and open the link it prints.",
  offline: "Cannot reach the od server: is `od serve` still running?",
};

/** @type {BannerState | undefined} the banner shown */
let shown;

/** The server did not answer: said, unless the banner says already that it is gone. */
export function serverAway() {
  if (shown !== "gone") showBanner("offline");
}

/** The server answered: a banner that said it was away goes. */
export function serverAnswered() {
  if (shown === "gone" || shown === "offline") showBanner();
}

/**
 * Shows `state`'s banner ("reconnecting", "gone", "offline"), or none ("live", or nothing).
 * @param {BannerState} [state]
 */
export function showBanner(state) {
  shown = state && MESSAGES[state] ? state : undefined;
  const banner = $("banner");
  const text = state && MESSAGES[state];
  banner.hidden = !text;
  banner.className = `banner ${state ?? ""}`;
  banner.replaceChildren(...(text ? codeSpans(text) : []));
}

/** The token was refused: the workbench gives way to how to get a fresh link. */
export function showFreshLink() {
  showBanner();
  if ($("workbench").hidden) return;
  saveDraft();
  $("workbench").hidden = true;
  const view = $("fresh-link");
  view.hidden = false;
  for (const origin of view.querySelectorAll(".origin")) origin.textContent = location.origin;
  view.querySelector("h2")?.focus();
}

/**
 * The token is taken again (the new link was opened in another tab): the workbench is back as it was.
 * Its draft is left to the tab that opened the new link (it may not have loaded yet). True if it was hidden.
 */
export function showWorkbench() {
  if (!$("workbench").hidden) return false;
  $("fresh-link").hidden = true;
  $("workbench").hidden = false;
  $("run-status").textContent = "Connected again (the new link was opened in another tab): what you typed is still here.";
  return true;
}

/** `text` with `backticked` parts as code. */
function codeSpans(/** @type {string} */ text) {
  return text.split("`").map((part, i) => (i % 2 ? Object.assign(document.createElement("code"), { textContent: part }) : part));
}
