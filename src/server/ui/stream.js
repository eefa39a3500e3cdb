// @ts-check
// A run's events over Server-Sent Events, surviving a dropped connection. EventSource reconnects
// by itself and sends Last-Event-ID (the server resumes after it); when the browser gives up (an
// error status), the stream is opened again from the last event seen. While the stream is down
// the server's health is probed: down for GONE_AFTER_MS is "gone", up but refusing the token
// (a restarted server has a new one) is "unauthorized"; either way watching stops. How long is the
// server's to say (the page's od-gone-ms meta; GONE_AFTER_MS, 4 s, unless it says otherwise).

import { EVENT_TYPES } from "../../core/contract/event-types.ts";

/** @typedef {import("../../core/contract/events.ts").OdEvent} OdEvent */
/** @typedef {"reconnecting" | "live" | "gone" | "unauthorized"} Connection */

export const GONE_AFTER_MS = 4000;
/** The page's od-gone-ms, else GONE_AFTER_MS (read when a run is watched: this module loads without a page too). */
const goneAfterMs = () => Number(globalThis.document?.querySelector('meta[name="od-gone-ms"]')?.getAttribute("content")) || GONE_AFTER_MS;
const PROBE_MS = 1000;

const status = (/** @type {string} */ path) =>
  fetch(path, { cache: "no-store" }).then(
    (r) => r.status,
    () => 0,
  );

/**
 * Watches a run: `onEvent(event)` for each event in order (the run ends at `run.finished`), and
 * `onConnection(state)` with "reconnecting", "live" (back again), "gone" or "unauthorized".
 */
/**
 * @param {string} runId
 * @param {{ onEvent: (event: OdEvent) => void, onConnection?: (state: Connection) => void }} handlers
 */
export function watchRun(runId, { onEvent, onConnection = () => {} }) {
  const goneAfter = goneAfterMs();
  const path = `/api/runs/${encodeURIComponent(runId)}/events`;
  /** @type {EventSource | undefined} */
  let source;
  let lastSeq = -1;
  let closed = false;
  /** @type {{ since: number, timer?: ReturnType<typeof setTimeout> } | undefined} while the stream is down */
  let probe;

  const close = () => {
    closed = true;
    clearTimeout(probe?.timer);
    probe = undefined;
    source?.close();
  };
  const end = (/** @type {Connection} */ state) => {
    close();
    onConnection(state);
  };
  const receive = (/** @type {MessageEvent<string>} */ message) => {
    if (closed) return;
    /** @type {OdEvent} the server's own, as its log holds it */
    const event = JSON.parse(message.data);
    if (typeof event.seq === "number") {
      if (event.seq <= lastSeq) return; // already shown before a reconnect
      lastSeq = event.seq;
    }
    onEvent(event);
    if (event.type === "run.finished") close();
  };
  const tick = async () => {
    if (closed || !probe) return;
    if ((await status("/api/health")) === 200) {
      const run = await status(`/api/runs/${encodeURIComponent(runId)}`);
      if (run === 401) return end("unauthorized");
      probe.since = Date.now();
      if (run === 200 && source?.readyState === EventSource.CLOSED) open();
    } else if (Date.now() - probe.since > goneAfter) return end("gone");
    if (probe) probe.timer = setTimeout(tick, PROBE_MS);
  };
  const dropped = () => {
    if (closed || probe) return;
    onConnection("reconnecting");
    probe = { since: Date.now() };
    tick();
  };
  const open = () => {
    source?.close();
    const next = new EventSource(lastSeq >= 0 ? `${path}?after=${lastSeq}` : path);
    source = next;
    // Every type of the contract (bundled from it, not copied). An OdEvent "error" carries data; the
    // browser's own connection error, under the same name, has none and is never parsed.
    for (const type of EVENT_TYPES) if (type !== "error") next.addEventListener(type, receive);
    next.addEventListener("error", (m) => (m instanceof MessageEvent && typeof m.data === "string" ? receive(m) : dropped()));
    next.addEventListener("open", () => {
      if (!probe || closed) return;
      clearTimeout(probe.timer);
      probe = undefined;
      onConnection("live");
    });
  };
  open();
  return { close };
}
