// @ts-check
// On a phone the workbench is two tabs, Output (the form and what runs) and History, not one long
// scroll with the history below the output. On a wider screen both show side by side and the tabs
// are gone: the panels are then plain regions again.
import { $ } from "./page.js";

const PHONE = "(max-width: 760px)";

/** @typedef {"work" | "history"} Tab */

/** The tab buttons and their panels, with each panel's own label when it is no tab panel. */
const pairs = () =>
  /** @type {const} */ ([
    { tab: $("tab-work"), panel: $("work"), label: "new-run" },
    { tab: $("tab-history"), panel: $("history"), label: "recent-runs" },
  ]);

/** Shows `which` (on a phone; on a wide screen both are shown anyway); `focus` moves the keyboard to its tab. */
export function selectTab(/** @type {Tab} */ which, focus = false) {
  for (const { tab, panel } of pairs()) {
    const on = panel.id === which;
    tab.setAttribute("aria-selected", String(on));
    tab.tabIndex = on ? 0 : -1;
    panel.classList.toggle("tab-off", !on);
    if (on && focus) tab.focus();
  }
}

/** Tab panels on a phone, regions with their headings on a wide screen. */
function layout(/** @type {boolean} */ phone) {
  for (const { tab, panel, label } of pairs()) {
    if (phone) {
      panel.setAttribute("role", "tabpanel");
      panel.setAttribute("aria-labelledby", tab.id);
    } else {
      panel.removeAttribute("role");
      panel.setAttribute("aria-labelledby", label);
    }
  }
}

/** Wires the tabs: a click or the arrow keys (Home, End) choose one, as a tab list does. */
export function initTabs() {
  const media = matchMedia(PHONE);
  layout(media.matches);
  media.addEventListener("change", () => layout(media.matches));
  const tabs = pairs().map((p) => p.tab);
  for (const [i, tab] of tabs.entries()) {
    tab.addEventListener("click", () => selectTab(/** @type {Tab} */ (tab.getAttribute("aria-controls"))));
    tab.addEventListener("keydown", (e) => {
      const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      const next = tabs[(to + tabs.length) % tabs.length];
      if (next) selectTab(/** @type {Tab} */ (next.getAttribute("aria-controls")), true);
    });
  }
  selectTab("work");
}
