// @ts-check
// A compare run: one column per member streaming its transcript side by side (stacked on a narrow
// screen), then each member's kept result (compare-result.js: files, the diff, "Apply this one", and
// Discard). When the server goes away mid-run, the transcripts stay as far as they got and the page
// says so. Everything an agent wrote is set as text (the transcript renders its Markdown with raw HTML escaped).
import { post, showResults } from "./compare-result.js";
import { el } from "./tool-card.js";

/** @typedef {typeof import("./api.js").api} Api */
/** @typedef {typeof import("./stream.js").watchRun} WatchRun */
/** @typedef {typeof import("./transcript.js").createTranscript} CreateTranscript */
/** @typedef {import("../../core/runs/groups.ts").GroupHandle["members"][number]} Member a member as POST /compare answers it */
/** @typedef {import("./compare-result.js").GroupDiff} GroupDiff */
/** @typedef {ReturnType<typeof column> & { member: Member }} Column */

const POLL_MS = 300;
const LOST =
  "The od server went away before the compare run ended: the transcripts stay as far as they got; once it is back, open the run from the history.";

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
  const finish = (/** @type {string} */ status, text = status) => {
    badge.className = `badge ${status}`;
    badge.textContent = text;
  };
  return { node, transcript, result, finish };
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
    const lost = (await Promise.all(columns.map((c) => follow(c, watchRun)))).some(Boolean);
    cancel.hidden = true;
    if (lost) return void (state.textContent = LOST);
    state.textContent = "Keeping each result…";
    try {
      await waitForGroup(api, groupId);
      /** @type {GroupDiff} */
      const diff = await api(`/runs/${encodeURIComponent(groupId)}/diff`);
      state.textContent = "All runs finished: compare their results and apply the one you want.";
      showResults(diff, columns, { api, groupId, state, bar: /** @type {HTMLElement} */ (state.parentElement) });
    } catch (err) {
      // The runs ended but their results could not be read (the server went away meanwhile): the transcripts stay.
      state.textContent =
        err instanceof Error && "status" in err && err.status === 0
          ? LOST
          : `Could not read the results: ${err instanceof Error ? err.message : err}`;
    }
  }
  return { start, show };
}

/**
 * Streams one member into its column until its run.finished, or until its stream is lost for good
 * (the server gone, or refusing this page's token): then resolves true, its transcript kept.
 * @param {Column} col
 * @param {WatchRun} watchRun
 * @returns {Promise<boolean>}
 */
function follow(col, watchRun) {
  return new Promise((resolve) => {
    let done = false;
    /** @type {{ close(): void } | undefined} */
    let watcher;
    const end = (/** @type {string} */ status, lost = false) => {
      if (done) return;
      done = true;
      col.finish(status, lost ? "server gone" : status);
      watcher?.close();
      resolve(lost);
    };
    watcher = watchRun(col.member.runId, {
      onEvent: (e) => {
        col.transcript.event(e);
        if (e.type === "run.finished") end(e.status);
      },
      onConnection: (s) => (s === "gone" || s === "unauthorized") && end("unknown", true),
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
