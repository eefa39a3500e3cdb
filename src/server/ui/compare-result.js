// @ts-check
// A compare run's kept results, under each member's column: its files with line counts, the diff,
// "Apply this one"; and, for the whole run, "Discard kept results" (POST /runs/:groupId/discard: its
// od/<groupId>/* branches and patches removed, as `od discard` does). What an apply or a discard did,
// or why it was refused, is said next to the button pressed.
import { renderDiff } from "./result.js";
import { el } from "./tool-card.js";

/** @typedef {typeof import("./api.js").api} Api */
/** @typedef {import("../../core/store/groups.ts").GroupMember & { diff: string | null }} KeptMember a member as GET /runs/:groupId/diff answers it */
/** @typedef {{ members?: KeptMember[], applied?: { label: string } }} GroupDiff */
/** @typedef {import("../../core/workspace/apply.ts").Applied} Applied */
/** @typedef {import("../../core/workspace/apply.ts").Discarded} Discarded */
/** @typedef {import("../../core/workspace/keep.ts").FileStat} FileStat */
/** @typedef {{ member: { label: string }, result: HTMLElement }} ResultSlot a member's column, where its result goes */

export const post = (/** @type {Api} */ api, /** @type {string} */ path, body = {}) =>
  api(path, { method: "POST", body: JSON.stringify(body) });
/** An error's message, with its hint when it has one (the server's ApiError). */
const errorText = (/** @type {unknown} */ err) =>
  err instanceof Error ? ("hint" in err && err.hint ? `${err.message} (${err.hint})` : err.message) : String(err);
const plural = (/** @type {number} */ n, /** @type {string} */ word, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;
const totals = (/** @type {FileStat[]} */ files) =>
  files.reduce((t, f) => ({ added: t.added + f.added, removed: t.removed + f.removed }), { added: 0, removed: 0 });
const fileList = (/** @type {FileStat[]} */ files) =>
  el("ul", { className: "files" }, ...files.map((f) => el("li", {}, el("code", { textContent: f.path }), ` +${f.added} −${f.removed}`)));

/**
 * A member's kept result: its files with line counts, the diff, and the button that applies it.
 * @param {KeptMember} member
 * @param {{ onApply: (member: KeptMember, button: HTMLButtonElement) => void }} handlers
 */
function resultPanel(member, { onApply }) {
  const files = member.files ?? [];
  if (!member.diff)
    return { node: nothingKept(member.note ?? (files.length ? "its result is no longer kept" : "no file changed")), button: null };
  const t = totals(files);
  const button = el("button", { type: "button", className: "primary", textContent: "Apply this one" });
  button.setAttribute("aria-label", `Apply ${member.label}'s result`);
  button.addEventListener("click", () => onApply(member, button));
  const summary = el("summary", { textContent: `${plural(files.length, "file")} changed, +${t.added} −${t.removed}` });
  const node = el("div", {}, el("details", { className: "compare-diff" }, summary, fileList(files), renderDiff(member.diff)), button);
  return { node, button };
}

const nothingKept = (/** @type {string} */ why) => el("p", { className: "compare-none", textContent: `Nothing to apply: ${why}.` });

/**
 * What an apply or a discard did, or why it was refused, said where the user looks (and to screen readers).
 * @param {HTMLElement} box
 * @param {{ ok: boolean, head: string, text: string, files?: FileStat[] }} said
 */
function outcome(box, { ok, head, text, files = [] }) {
  box.hidden = false;
  box.className = `compare-outcome ${ok ? "applied" : "refused"}`;
  box.setAttribute("role", ok ? "status" : "alert");
  box.replaceChildren(el("strong", { textContent: `${head} ` }), text, files.length ? fileList(files) : "");
}

/** What a discard removed, in words. */
export function discardedText(/** @type {Discarded} */ d) {
  const removed = [
    d.branches.length ? `${plural(d.branches.length, "branch", "branches")} (${d.branches.join(", ")})` : "",
    d.patches.length ? plural(d.patches.length, "patch file") : "",
  ].filter(Boolean);
  const said = removed.length ? `Removed ${removed.join(" and ")}.` : "Nothing was kept any more.";
  return d.notes.length ? `${said} But ${d.notes.join("; ")}.` : said;
}

/**
 * Each member's result under its column, the apply buttons, and Discard for the run's kept results.
 * @param {GroupDiff} diff
 * @param {ResultSlot[]} columns
 * @param {{ api: Api, groupId: string, state: HTMLElement, bar: HTMLElement }} where
 */
export function showResults(diff, columns, { api, groupId, state, bar }) {
  const box = el("div", { className: "compare-outcome", hidden: true });
  /** @type {HTMLButtonElement[]} */
  const buttons = [];
  const settle = (/** @type {string} */ label) => {
    for (const b of buttons) {
      b.disabled = true;
      if (b.dataset.label === label) b.textContent = "Applied";
    }
  };
  const onApply = async (/** @type {KeptMember} */ member, /** @type {HTMLButtonElement} */ button) => {
    for (const b of buttons) b.disabled = true;
    button.after(box); // said next to the button pressed, where the user looks
    try {
      /** @type {Applied} */
      const applied = await post(api, `/runs/${encodeURIComponent(groupId)}/apply`, { label: member.label });
      settle(member.label);
      state.textContent = `Applied ${member.label}'s result.`;
      outcome(box, {
        ok: true,
        head: "Applied.",
        text: `${member.label}'s result is in ${applied.dir} (not committed).`,
        files: applied.files ?? [],
      });
    } catch (err) {
      for (const b of buttons) b.disabled = false;
      outcome(box, { ok: false, head: "Not applied.", text: errorText(err) });
      button.focus();
    }
  };
  const slots = new Map(columns.map((c) => [c.member.label, c.result]));
  for (const m of diff.members ?? []) {
    const slot = slots.get(m.label);
    if (!slot) continue;
    const panel = resultPanel(m, { onApply });
    if (panel.button) {
      panel.button.dataset.label = m.label;
      buttons.push(panel.button);
    }
    slot.replaceChildren(el("h4", { textContent: "Kept result" }), panel.node);
    slot.hidden = false;
  }
  if (diff.applied) {
    settle(diff.applied.label);
    state.textContent = `${diff.applied.label}'s result was applied already.`;
  }
  if (buttons.length) bar.append(discardButton({ api, groupId, state, box, slots }));
}

/**
 * "Discard kept results": asks first (it cannot be undone), then removes them; each column then says so.
 * @param {{ api: Api, groupId: string, state: HTMLElement, box: HTMLElement, slots: Map<string, HTMLElement> }} where
 */
function discardButton({ api, groupId, state, box, slots }) {
  const button = el("button", { type: "button", className: "discard", textContent: "Discard kept results" });
  button.addEventListener("click", async () => {
    if (!confirm("Discard every kept result of this compare run? Its od/… branches and patches are deleted; applied changes stay.")) return;
    button.disabled = true;
    button.after(box);
    try {
      /** @type {Discarded} */
      const done = await post(api, `/runs/${encodeURIComponent(groupId)}/discard`);
      for (const [label, slot] of slots)
        if (slot.querySelector(".compare-diff") && !done.notes.some((n) => n.includes(`/${label}`)))
          slot.replaceChildren(el("h4", { textContent: "Kept result" }), nothingKept("discarded"));
      button.hidden = !done.notes.length;
      button.disabled = false;
      state.textContent = "The kept results are discarded.";
      outcome(box, { ok: !done.notes.length, head: "Discarded.", text: discardedText(done) });
    } catch (err) {
      button.disabled = false;
      outcome(box, { ok: false, head: "Not discarded.", text: errorText(err) });
      button.focus();
    }
  });
  return button;
}
