// @ts-check
// The od web UI: plain DOM, no framework, bundled at build time. This module wires the parts together:
// the form (form.js), recent runs (history.js), a run's stream (stream.js) into its transcript
// (transcript.js), compare runs (compare.js), what the page says about its connection (banner.js), and
// the Usage view (usage.js), which mounts itself with its link in the header.
import { ApiError, api, onApiTrouble, post } from "./api.js";
import { showBanner, showFreshLink } from "./banner.js";
import { createCompare } from "./compare.js";
import {
  agentChanged,
  currentAgent,
  fillForm,
  offerSession,
  readCompare,
  readForm,
  setAgents,
  setSkills,
  setTargets,
  targetName,
} from "./form.js";
import { renderHistory, took } from "./history.js";
import { $ } from "./page.js";
import { watchRun } from "./stream.js";
import { createTranscript } from "./transcript.js";
import { mountUsage } from "./usage.js";

/** @typedef {import("../../core/contract/events.ts").OdEvent} OdEvent */
/** @typedef {import("../../core/store/summary.ts").RunSummary} RunSummary */
/** @typedef {import("../../core/runs/history.ts").HistoryRecord} HistoryRecord */
/** @typedef {import("./form.js").RunBody} RunBody */
/** @typedef {import("./stream.js").Connection} Connection */
/** @typedef {typeof import("./stream.js").watchRun} WatchRun */

/** @type {{ watcher?: { close(): void }, runId?: string, live: boolean, offline: boolean }} */
const state = { watcher: undefined, runId: undefined, live: false, offline: false };

/** Run is offered only while no run is live; Cancel only while one is. */
function setLive(/** @type {boolean} */ live) {
  state.live = live;
  $("run").disabled = live;
  $("cancel").disabled = !live;
  $("output").setAttribute("aria-busy", String(live));
}

const setStatus = (/** @type {string} */ text) => ($("run-status").textContent = text);

/** A start that failed: said where the output goes, the old output cleared. */
function showAlert(/** @type {string} */ message) {
  state.watcher?.close();
  state.runId = undefined;
  $("output").replaceChildren();
  setStatus("");
  $("alert").hidden = false;
  $("alert").textContent = message;
}

async function loadRuns() {
  const { runs } = await api("/runs?limit=30");
  renderHistory(runs, open, state.runId);
}

/**
 * Streams a run (live, or replayed from its log) into the output panel.
 * @param {string} runId
 * @param {{ prompt?: string, agent?: { id?: string, name?: string }, live: boolean }} how
 */
function show(runId, { prompt, agent, live }) {
  state.watcher?.close();
  state.runId = runId;
  $("alert").hidden = true;
  const agentName = agent?.name ?? agent?.id ?? "The agent";
  const answer = (/** @type {string} */ askId, /** @type {"allow" | "deny"} */ decision) =>
    post(`/runs/${runId}/permissions/${encodeURIComponent(askId)}`, { decision });
  const transcript = createTranscript($("output"), { agentName, answer });
  if (prompt) transcript.prompt(prompt);
  setLive(live);
  setStatus(live ? "Running…" : "Replaying…");
  state.watcher = watchRun(runId, {
    onEvent: (e) => {
      transcript.event(e);
      follow(e);
    },
    onConnection: connection,
  });
}

function follow(/** @type {OdEvent} */ e) {
  if (e.type === "run.started")
    setStatus(`${e.agent} in ${e.cwd || "the login directory"}${e.on ? ` on ${targetName(e.on)}` : ""} (${e.mode})…`);
  if (e.type !== "run.finished") return;
  setLive(false);
  setStatus(`${e.status.charAt(0).toUpperCase()}${e.status.slice(1)} in ${took(e.durationMs)}`);
  offerSession(e.resumable ? e.sessionId : undefined);
  loadRuns().catch(() => {});
}

function connection(/** @type {Connection} */ s) {
  if (s === "unauthorized") return showFreshLink();
  showBanner(s);
  if (s === "gone") {
    setLive(false);
    setStatus("The server went away before the run ended.");
  }
}

/** A past run: its settings back in the form, its events replayed (a live one goes on streaming). */
async function open(/** @type {HistoryRecord} */ record) {
  // A compare run is one entry of the history: opening it shows its members side by side again.
  if (record.kind === "compare") return openCompare(record);
  // A conversation opens at its last turn.
  const summary = record.kind === "thread" ? /** @type {RunSummary} */ (record.turns[record.turns.length - 1]) : record;
  await fillForm(summary).catch(() => {});
  const agent = currentAgent()?.id === summary.agent ? currentAgent() : { name: summary.agent };
  show(summary.runId, { prompt: summary.prompt, agent, live: summary.status === "running" });
  offerSession(summary.resumable ? summary.sessionId : undefined);
  loadRuns().catch(() => {});
}

/** The attached images go up first (as base64 JSON); the run gets their paths on the server. */
async function uploadImages() {
  /** @type {string[]} */
  const paths = [];
  for (const file of $("images").files ?? []) {
    /** @type {string | undefined} */
    const data = await new Promise((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result).split(",")[1]);
      reader.onerror = () => reject(reader.error);
      reader.readAsDataURL(file);
    });
    paths.push((await post("/uploads", { name: file.name, data })).path);
  }
  return paths;
}

/** What went wrong, for the alert: the server's message and hint, or the error's own message. */
const failure = (/** @type {unknown} */ err) => (err instanceof ApiError ? err.text : err instanceof Error ? err.message : String(err));
/** A refused token: the page already shows how to get a fresh link (banner.js), so no alert says it again. */
const refused = (/** @type {unknown} */ err) => err instanceof ApiError && err.status === 401;

async function start(/** @type {SubmitEvent} */ event) {
  event.preventDefault();
  if (state.live) return;
  const body = readForm();
  const spec = readCompare();
  setLive(true);
  try {
    const images = await uploadImages();
    if (images.length) body.images = images;
    if (spec) return await startCompare(body, spec);
    const { runId } = await post("/runs", body);
    $("images").value = "";
    show(runId, { prompt: body.prompt, agent: currentAgent(), live: true });
    $("prompt").value = "";
    loadRuns().catch(() => {});
  } catch (err) {
    setLive(false);
    if (!refused(err)) showAlert(`Could not start: ${failure(err)}`);
  }
}

/** A compare run from the history, its members replayed side by side with their results. */
async function openCompare(/** @type {import("../../core/runs/history.ts").CompareRecord} */ record) {
  state.watcher?.close();
  state.runId = undefined;
  $("alert").hidden = true;
  setStatus("");
  try {
    const members = record.members.map((m) => ({ label: m.label, agent: m.agent ?? "", runId: m.runId }));
    await createCompare($("output"), { api, watchRun, createTranscript }).show({ groupId: record.groupId, members }, record.prompt);
  } finally {
    loadRuns().catch(() => {});
  }
}

/**
 * Several agents (or one, repeated) on the same request, side by side (compare.js).
 * @param {RunBody} request
 * @param {NonNullable<ReturnType<typeof readCompare>>} spec
 */
async function startCompare(request, spec) {
  state.watcher?.close();
  state.runId = undefined;
  $("alert").hidden = true;
  $("cancel").disabled = true; // the compare run has its own "Cancel all"
  setStatus("Comparing…");
  const { agent, resume, ask, ...rest } = request;
  const body = spec.agents ? { ...rest, agents: spec.agents } : { ...rest, agent, repeat: spec.repeat };
  // Each member's stream also tells the banner when the connection drops or the server is gone.
  /** @type {WatchRun} */
  const watch = (runId, handlers) =>
    watchRun(runId, {
      ...handlers,
      onConnection: (s) => {
        connection(s);
        handlers.onConnection?.(s);
      },
    });
  try {
    await createCompare($("output"), { api, watchRun: watch, createTranscript }).start(body);
    setStatus("");
  } finally {
    setLive(false);
    loadRuns().catch(() => {});
  }
}

async function cancel() {
  if (state.runId) await post(`/runs/${state.runId}/cancel`).catch(() => {});
}

async function boot() {
  mountUsage(); // the Usage view (#usage) and the header's links to it
  onApiTrouble({
    unauthorized: showFreshLink,
    offline: () => {
      state.offline = true;
      showBanner("offline");
    },
    online: () => {
      if (state.offline) showBanner();
      state.offline = false;
    },
  });
  $("form").addEventListener("submit", start);
  $("agent").addEventListener("change", () => agentChanged().catch(() => {}));
  $("cancel").addEventListener("click", cancel);
  $("form").addEventListener("keydown", (e) => e.key === "Enter" && (e.ctrlKey || e.metaKey) && $("form").requestSubmit());
  const { version, cwd } = await api("/version");
  $("version").textContent = `v${version}`;
  $("cwd").value = cwd;
  const [{ agents }, { skills }, { targets }] = await Promise.all([api("/agents"), api("/skills"), api("/targets"), loadRuns()]);
  setAgents(agents);
  setSkills(skills);
  setTargets(targets);
  if (targets.length) loadRuns().catch(() => {}); // again, with the targets' names
  await agentChanged();
}

boot().catch((err) => {
  if (!refused(err)) showAlert(`The page could not load: ${failure(err)}`);
});
