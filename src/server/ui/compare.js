// @ts-check
// A compare run: one column per member streaming its transcript side by side (stacked on a narrow
// screen), then each member's kept result (files, +added −removed, the diff) with "Apply this one".
// Everything an agent wrote is set as text (the transcript renders its Markdown with raw HTML escaped).
import { renderDiff } from "./result.js";
import { el } from "./tool-card.js";

/** @typedef {typeof import("./api.js").api} Api */
/** @typedef {typeof import("./stream.js").watchRun} WatchRun */
/** @typedef {typeof import("./transcript.js").createTranscript} CreateTranscript */
/** @typedef {import("../../core/runs/groups.ts").GroupHandle["members"][number]} Member a member as POST /compare answers it */
/** @typedef {import("../../core/store/groups.ts").GroupMember & { diff: string | null }} KeptMember a member as GET /runs/:groupId/diff answers it */
/** @typedef {{ members?: KeptMember[], applied?: { label: string } }} GroupDiff */
/** @typedef {import("../../core/workspace/apply.ts").Applied} Applied */
/** @typedef {import("../../core/workspace/keep.ts").FileStat} FileStat */
/** @typedef {ReturnType<typeof column> & { member: Member }} Column */

const POLL_MS = 300;

const post = (/** @type {Api} */ api, /** @type {string} */ path, body = {}) => api(path, { method: "POST", body: JSON.stringify(body) });
/** An error's message, with its hint when it has one (the server's ApiError). */
const errorText = (/** @type {unknown} */ err) =>
  err instanceof Error ? ("hint" in err && err.hint ? `${err.message} (${err.hint})` : err.message) : String(err);
const plural = (/** @type {number} */ n, /** @type {string} */ word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const totals = (/** @type {FileStat[]} */ files) =>
  files.reduce((t, f) => ({ added: t.added + f.added, removed: t.removed + f.removed }), { added: 0, removed: 0 });

/**
 * One member's column: its heading and status, its transcript, and (at the end) its result to apply.
 * @param {Member} member
 * @param {{ api: Api, createTranscript: CreateTranscript }} deps
 */
function column(member, { api, createTranscript }) {
  const id = `cmp-${member.runId}`;
  const badge = el("span", { className: "badge running", textContent: "running" });
  const body = el("div", { className: "compare-stream" });
  const result = el("div", { className: "compare-result", hidden: true });
  const node = el(
    "section",
    { className: "compare-col" },
    el("h3", { id, className: "compare-head" }, el("span", { className: "compare-label", textContent: member.label }), " ", badge),
    body,
    result,
  );
  node.setAttribute("aria-labelledby", id);
  const answer = (/** @type {string} */ askId, /** @type {"allow" | "deny"} */ decision) =>
    post(api, `/runs/${encodeURIComponent(member.runId)}/permissions/${encodeURIComponent(askId)}`, { decision });
  const transcript = createTranscript(body, { agentName: member.agent, answer });
  const finish = (/** @type {string} */ status) => {
    badge.className = `badge ${status}`;
    badge.textContent = status;
  };
  return { node, transcript, result, finish };
}

/**
 * A member's kept result: its files with line counts, the diff, and the button that applies it.
 * @param {KeptMember} member
 * @param {{ onApply: (member: KeptMember, button: HTMLButtonElement) => void }} handlers
 */
function resultPanel(member, { onApply }) {
  const files = member.files ?? [];
  if (!member.diff) {
    const why = member.note ?? (files.length ? "its result is no longer kept" : "no file changed");
    return { node: el("p", { className: "compare-none", textContent: `Nothing to apply: ${why}.` }), button: null };
  }
  const t = totals(files);
  const list = el(
    "ul",
    { className: "files" },
    ...files.map((f) => el("li", {}, el("code", { textContent: f.path }), ` +${f.added} −${f.removed}`)),
  );
  const button = el("button", { type: "button", className: "primary", textContent: "Apply this one" });
  button.setAttribute("aria-label", `Apply ${member.label}'s result`);
  button.addEventListener("click", () => onApply(member, button));
  const summary = el("summary", { textContent: `${plural(files.length, "file")} changed, +${t.added} −${t.removed}` });
  const node = el("div", {}, el("details", { className: "compare-diff" }, summary, list, renderDiff(member.diff)), button);
  return { node, button };
}

/**
 * What an apply did, or why it was refused, said where the user looks (and to screen readers).
 * @param {HTMLElement} box
 * @param {{ ok: boolean, text: string, files?: FileStat[] }} said
 */
function outcome(box, { ok, text, files = [] }) {
  box.hidden = false;
  box.className = `compare-outcome ${ok ? "applied" : "refused"}`;
  box.setAttribute("role", ok ? "status" : "alert");
  box.replaceChildren(
    el("strong", { textContent: ok ? "Applied. " : "Not applied. " }),
    text,
    files.length
      ? el(
          "ul",
          { className: "files" },
          ...files.map((f) => el("li", {}, el("code", { textContent: f.path }), ` +${f.added} −${f.removed}`)),
        )
      : "",
  );
}

/**
 * root: where the compare run is shown (cleared). `api(path, init)` answers parsed JSON, `watchRun(runId,
 * {onEvent, onConnection})` streams a run, `createTranscript(el, {agentName, answer})` renders one.
 * `start(body)` starts the run (rejects when the server refuses it) and resolves once its results are shown.
 * @param {HTMLElement} root
 * @param {{ api: Api, watchRun: WatchRun, createTranscript: CreateTranscript }} deps
 */
export function createCompare(root, { api, watchRun, createTranscript }) {
  async function start(/** @type {Record<string, unknown>} */ body) {
    await show(await post(api, "/compare", body), String(body.prompt ?? ""));
  }
  /** A compare run already started (or ended: its members' logs replay), by its id and members. */
  /**
   * @param {{ groupId: string, members: Member[] }} started
   * @param {string} prompt
   */
  async function show({ groupId, members }, prompt) {
    root.replaceChildren();
    root.classList.remove("transcript");
    const state = el("span", { className: "compare-state", role: "status", textContent: `Comparing ${members.length} runs…` });
    const cancel = el("button", { type: "button", textContent: "Cancel all" });
    cancel.addEventListener("click", () => post(api, `/compare/${encodeURIComponent(groupId)}/cancel`).catch(() => {}));
    const columns = members.map((m) => ({ member: m, ...column(m, { api, createTranscript }) }));
    const view = el(
      "div",
      { className: "compare transcript" },
      el("div", { className: "prompt" }, el("span", { className: "who", textContent: "You" }), el("p", { textContent: prompt ?? "" })),
      el("div", { className: "compare-bar" }, state, cancel),
      el("div", { className: "compare-cols" }, ...columns.map((c) => c.node)),
    );
    view.setAttribute("aria-label", "Compare run");
    root.append(view);
    await Promise.all(columns.map((c) => follow(c, watchRun)));
    cancel.hidden = true;
    state.textContent = "Keeping each result…";
    await waitForGroup(api, groupId);
    /** @type {GroupDiff} */
    const diff = await api(`/runs/${encodeURIComponent(groupId)}/diff`);
    state.textContent = "All runs finished: compare their results and apply the one you want.";
    showResults(diff, columns, { api, groupId, state });
  }
  return { start, show };
}

/**
 * Streams one member into its column until its run.finished (or its stream is lost for good).
 * @param {Column} col
 * @param {WatchRun} watchRun
 * @returns {Promise<void>}
 */
function follow(col, watchRun) {
  return new Promise((resolve) => {
    let done = false;
    /** @type {{ close(): void } | undefined} */
    let watcher;
    const end = (/** @type {string} */ status) => {
      if (done) return;
      done = true;
      col.finish(status);
      watcher?.close();
      resolve();
    };
    watcher = watchRun(col.member.runId, {
      onEvent: (e) => {
        col.transcript.event(e);
        if (e.type === "run.finished") end(e.status);
      },
      onConnection: (s) => (s === "gone" || s === "unauthorized") && end("unknown"),
    });
    if (done) watcher.close();
  });
}

/** Waits until the server has kept every member's result and recorded the group. */
async function waitForGroup(/** @type {Api} */ api, /** @type {string} */ groupId) {
  for (;;) {
    const status = await api(`/compare/${encodeURIComponent(groupId)}`);
    if (status.done) return status;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/**
 * @param {GroupDiff} diff
 * @param {Column[]} columns
 * @param {{ api: Api, groupId: string, state: HTMLElement }} where
 */
function showResults(diff, columns, { api, groupId, state }) {
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
      outcome(box, { ok: true, text: `${member.label}'s result is in ${applied.dir} (not committed).`, files: applied.files ?? [] });
    } catch (err) {
      for (const b of buttons) b.disabled = false;
      outcome(box, { ok: false, text: errorText(err) });
      button.focus();
    }
  };
  for (const m of diff.members ?? []) {
    const col = columns.find((c) => c.member.label === m.label);
    if (!col) continue;
    const panel = resultPanel(m, { onApply });
    if (panel.button) {
      panel.button.dataset.label = m.label;
      buttons.push(panel.button);
    }
    col.result.replaceChildren(el("h4", { textContent: "Kept result" }), panel.node);
    col.result.hidden = false;
  }
  if (diff.applied) {
    settle(diff.applied.label);
    state.textContent = `${diff.applied.label}'s result was applied already.`;
  }
}
