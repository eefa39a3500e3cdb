// A run's events over Server-Sent Events, surviving a dropped connection. EventSource reconnects
// by itself and sends Last-Event-ID (the server resumes after it); when the browser gives up (an
// error status), the stream is opened again from the last event seen. While the stream is down
// the server's health is probed: down for GONE_AFTER_MS is "gone", up but refusing the token
// (a restarted server has a new one) is "unauthorized"; either way watching stops.

/** Every OdEvent type; "error" is also the name of the browser's own connection-error event. */
const TYPES = [
  "run.started",
  "session",
  "status",
  "text.delta",
  "thinking.delta",
  "tool.call",
  "tool.result",
  "permission.request",
  "permission.decision",
  "usage",
  "raw",
  "run.result",
  "run.finished",
];

export const GONE_AFTER_MS = 4000;
const PROBE_MS = 1000;

const status = (path) =>
  fetch(path, { cache: "no-store" }).then(
    (r) => r.status,
    () => 0,
  );

/**
 * Watches a run: `onEvent(event)` for each event in order (the run ends at `run.finished`), and
 * `onConnection(state)` with "reconnecting", "live" (back again), "gone" or "unauthorized".
 */
export function watchRun(runId, { onEvent, onConnection = () => {} }) {
  const path = `/api/runs/${encodeURIComponent(runId)}/events`;
  let source;
  let lastSeq = -1;
  let closed = false;
  let probe;

  const close = () => {
    closed = true;
    clearTimeout(probe?.timer);
    probe = undefined;
    source?.close();
  };
  const end = (state) => {
    close();
    onConnection(state);
  };
  const receive = (message) => {
    if (closed) return;
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
      if (run === 200 && source.readyState === EventSource.CLOSED) open();
    } else if (Date.now() - probe.since > GONE_AFTER_MS) return end("gone");
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
    source = new EventSource(lastSeq >= 0 ? `${path}?after=${lastSeq}` : path);
    for (const type of TYPES) source.addEventListener(type, receive);
    // An OdEvent "error" carries data; the browser's connection error has none and is never parsed.
    source.addEventListener("error", (m) => (typeof m.data === "string" ? receive(m) : dropped()));
    source.addEventListener("open", () => {
      if (!probe || closed) return;
      clearTimeout(probe.timer);
      probe = undefined;
      onConnection("live");
    });
  };
  open();
  return { close };
}
