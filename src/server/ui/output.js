// @ts-check
// The output panel: a run streaming, a conversation (its turns oldest first in ONE transcript:
// continuing its session appends the next turn below the last), or a compare run side by side.
// Run and Cancel, and the status line beside them, follow what it shows.
import { ApiError, api, post } from "./api.js";
import { showBanner, showFreshLink } from "./banner.js";
import { createCompare } from "./compare.js";
import { agentName, currentAgent, fillForm, offerSession, readCompare, readForm, targetName } from "./form.js";
import { took } from "./history-entry.js";
import { $ } from "./page.js";
import { replayRun } from "./replay.js";
import { nudgeSetup } from "./setup.js";
import { watchRun } from "./stream.js";
import { createTranscript } from "./transcript.js";
import { uploadImages } from "./uploads.js";

/** @typedef {import("../../core/contract/events.ts").OdEvent} OdEvent */
/** @typedef {import("../../core/store/summary.ts").RunSummary} RunSummary */
/** @typedef {import("../../core/runs/history.ts").HistoryRecord} HistoryRecord */
/** @typedef {import("./replay.js").RunFinished} RunFinished */
/** @typedef {import("./stream.js").Connection} Connection */
/** @typedef {{ transcript: ReturnType<typeof createTranscript>, sessionId?: string }} Conversation the transcript shown */

/** @type {{ watcher?: { close(): void }, runId?: string, live: boolean, conversation?: Conversation }} */
const state = { live: false };
let changed = () => {};

/** Who hears that the history changed (a run started or ended). */
export const onRunsChanged = (/** @type {() => void} */ fn) => (changed = fn);
/** The run shown (a conversation's last turn), for the history to mark. */
export const shownRun = () => state.runId;

/** Run is offered only while no run is live; Cancel only while one is. */
export function setLive(/** @type {boolean} */ live) {
  state.live = live;
  $("run").disabled = live;
  $("cancel").disabled = !live;
  $("output").setAttribute("aria-busy", String(live));
}

export const setStatus = (/** @type {string} */ text) => ($("run-status").textContent = text);

/** Whatever is shown stops following its stream (another thing will be shown). */
function leave() {
  state.watcher?.close();
  state.watcher = undefined;
  state.runId = undefined;
  state.conversation = undefined;
  $("alert").hidden = true;
}

/** A start that failed: said where the output goes, the old output cleared. */
export function showAlert(/** @type {string} */ message) {
  leave();
  $("output").replaceChildren();
  setStatus("");
  $("alert").hidden = false;
  $("alert").textContent = message;
}

const answerFor = (/** @type {string} */ runId) => (/** @type {string} */ askId, /** @type {"allow" | "deny"} */ decision) =>
  post(`/runs/${encodeURIComponent(runId)}/permissions/${encodeURIComponent(askId)}`, { decision });

/** The transcript a run goes in: the shown conversation's next turn when it continues its session, else a new one. */
function transcriptFor(/** @type {string} */ runId, /** @type {{ name?: string, resume?: string }} */ { name, resume }) {
  const shown = state.conversation;
  if (resume && shown?.sessionId === resume) {
    shown.transcript.turn({ agentName: name, answer: answerFor(runId) });
    return shown.transcript;
  }
  leave();
  const transcript = createTranscript($("output"), { agentName: name, answer: answerFor(runId) });
  state.conversation = { transcript };
  return transcript;
}

/** Streams a live run into `transcript` until its run.finished. */
function follow(/** @type {string} */ runId, /** @type {Conversation["transcript"]} */ transcript) {
  state.watcher?.close();
  state.runId = runId;
  setLive(true);
  setStatus("Running…");
  state.watcher = watchRun(runId, {
    onEvent: (e) => {
      transcript.event(e);
      if (e.type === "run.started")
        setStatus(`${e.agent} in ${e.cwd || "the login directory"}${e.on ? ` on ${targetName(e.on)}` : ""} (${e.mode})…`);
      if (e.type !== "run.finished") return;
      setLive(false);
      ended(e);
      changed();
    },
    onConnection: connection,
  });
}

/** The shown conversation's last turn ended: how, and its session to continue. */
function ended(/** @type {{ status: string, durationMs?: number, sessionId?: string, resumable?: boolean }} */ e) {
  setStatus(`${e.status.charAt(0).toUpperCase()}${e.status.slice(1)}${e.durationMs === undefined ? "" : ` in ${took(e.durationMs)}`}`);
  if (state.conversation) state.conversation.sessionId = e.resumable ? e.sessionId : undefined;
  offerSession(e.resumable ? e.sessionId : undefined);
}

/** What the page does when a stream's connection changes: the banner, and a run it can no longer follow. */
export function connection(/** @type {Connection} */ s) {
  if (s === "unauthorized") return showFreshLink();
  showBanner(s);
  if (s === "gone") {
    setLive(false);
    setStatus("The server went away before the run ended.");
  }
}

/** A past run or conversation: its settings back in the form, every turn replayed in order (a live last turn goes on streaming). */
export async function open(/** @type {HistoryRecord} */ record) {
  if (record.kind === "compare") return openCompare(record);
  const turns = record.kind === "thread" ? record.turns : [record];
  const last = /** @type {RunSummary} */ (turns.at(-1));
  await fillForm(last).catch(() => {});
  leave();
  const stop = new AbortController();
  state.watcher = { close: () => stop.abort() };
  setLive(false);
  setStatus("Replaying…");
  const transcript = createTranscript($("output"), { agentName: agentName(turns[0]?.agent), answer: answerFor(turns[0]?.runId ?? "") });
  state.conversation = { transcript };
  /** @type {RunFinished | undefined} */
  let finished;
  for (const [i, turn] of turns.entries()) {
    if (i > 0) transcript.turn({ agentName: agentName(turn.agent), answer: answerFor(turn.runId) });
    if (turn.prompt) transcript.prompt(turn.prompt);
    if (turn === last && (turn.status === "running" || turn.status === "queued")) return follow(turn.runId, transcript);
    try {
      finished = await replayRun(turn.runId, (e) => transcript.event(e), stop.signal);
    } catch (err) {
      if (stop.signal.aborted) return;
      return setStatus(`Could not replay it: ${failure(err)}`);
    }
    if (stop.signal.aborted) return; // something else was opened meanwhile
  }
  state.runId = last.runId;
  ended(finished ?? last);
  changed();
}

/** What went wrong, for the alert: the server's message and hint, or the error's own message. */
export const failure = (/** @type {unknown} */ err) =>
  err instanceof ApiError ? err.text : err instanceof Error ? err.message : String(err);
/** A refused token: the page already shows how to get a fresh link (banner.js), so no alert says it again. */
export const refused = (/** @type {unknown} */ err) => err instanceof ApiError && err.status === 401;

/** The form's run (or compare run) starts; a refusal is said where the output goes. */
export async function start() {
  if (state.live) return;
  if (!currentAgent()?.installed) return nudgeSetup();
  if (!$("form").reportValidity()) return;
  const body = readForm();
  const spec = readCompare();
  setLive(true);
  try {
    const images = await uploadImages();
    if (images.length) body.images = images;
    if (spec) return await startCompare(body, spec);
    const { runId } = await post("/runs", body);
    $("images").value = "";
    $("alert").hidden = true;
    const agent = currentAgent();
    const transcript = transcriptFor(runId, { name: agent?.name ?? agent?.id, resume: body.resume });
    transcript.prompt(body.prompt);
    follow(runId, transcript);
    changed();
  } catch (err) {
    setLive(false);
    if (!refused(err)) showAlert(`Could not start: ${failure(err)}`);
  }
}

/** A compare run from the history, its members replayed side by side with their results. */
async function openCompare(/** @type {import("../../core/runs/history.ts").CompareRecord} */ record) {
  leave();
  setStatus("");
  try {
    const members = record.members.map((m) => ({ label: m.label, agent: m.agent ?? "", runId: m.runId }));
    await createCompare($("output"), { api, watchRun, createTranscript }).show({ groupId: record.groupId, members }, record.prompt);
  } finally {
    changed();
  }
}

/**
 * Several agents (or one, repeated) on the same request, side by side (compare.js).
 * @param {import("./form.js").RunBody} request
 * @param {NonNullable<ReturnType<typeof readCompare>>} spec
 */
async function startCompare(request, spec) {
  leave();
  $("cancel").disabled = true; // the compare run has its own "Cancel all"
  setStatus("Comparing…");
  const { agent, resume, ask, ...rest } = request;
  const body = spec.agents ? { ...rest, agents: spec.agents } : { ...rest, agent, repeat: spec.repeat };
  // Each member's stream also tells the banner when the connection drops or the server is gone.
  /** @type {typeof watchRun} */
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
    changed();
  }
}

/** Cancels the run shown. */
export async function cancel() {
  if (state.runId) await post(`/runs/${state.runId}/cancel`).catch(() => {});
}
