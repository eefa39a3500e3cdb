// @ts-check
// What the user typed in the form, kept for a fresh link: a restarted server has a new token, so the
// page must be opened again from its new link, often in another tab (a terminal opens links in a new
// one), so the draft is kept in localStorage (this origin's: the same host and port). Kept when the
// token is refused, given back once, by the next page that loads within a day.
import { $ } from "./page.js";

const KEY = "od.draft";
const KEEP_MS = 24 * 3600 * 1000;

/** @typedef {{ agent?: string, model?: string, effort?: string, mode?: string, cwd?: string, prompt?: string, skills?: string[], ask?: boolean }} Draft */

/** Keeps the form's content for the next page that loads. */
export function saveDraft() {
  /** @type {Draft & { at: number }} */
  const draft = {
    at: Date.now(),
    agent: $("agent").value,
    model: $("model").value,
    effort: $("effort").value,
    mode: $("mode").value,
    cwd: $("cwd").value,
    prompt: $("prompt").value,
    skills: [...$("skills").selectedOptions].map((o) => o.value),
    ask: $("ask").checked,
  };
  try {
    localStorage.setItem(KEY, JSON.stringify(draft));
  } catch {} // storage refused (a private window's quota): nothing to keep it in
}

/** The form's content kept by saveDraft, once (it is forgotten as it is taken), or undefined when none or stale. */
export function takeDraft() {
  try {
    const text = localStorage.getItem(KEY);
    localStorage.removeItem(KEY);
    const draft = text ? JSON.parse(text) : undefined;
    if (!draft || typeof draft !== "object" || !(Date.now() - Number(draft.at) < KEEP_MS)) return undefined;
    return /** @type {Draft} */ (draft);
  } catch {
    return undefined;
  }
}
