// @ts-check
// Whether the server is still there, noticed while the page is idle: a light call every few seconds
// (GET /api/version, which carries the token, so a restarted server, whose token is new, refuses it),
// every second while it is away so that its return is noticed at once. What the answers mean is
// api.js's to tell (its listeners: the banner, the page for a fresh link). Hidden tabs do not poll.
// A refused page goes on asking: once the new link is opened in another tab (the browser then sends
// its new cookie from this one too), the token is taken again and `onValid` brings the workbench back.
// How often an idle page asks is the server's to say (the page's od-health-ms meta; 5 s unless it says otherwise).
import { ApiError, api } from "./api.js";

const IDLE_MS = 5000;
const AWAY_MS = 1000;

/** Polls the server; `onValid` runs when it takes this page's token again after refusing it. */
export function watchServer(/** @type {() => void} */ onValid) {
  const idleMs = Number(document.querySelector('meta[name="od-health-ms"]')?.getAttribute("content")) || IDLE_MS;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let away = false;
  let busy = false;
  let refused = false;
  const schedule = () => {
    clearTimeout(timer);
    if (document.visibilityState !== "hidden") timer = setTimeout(check, away ? AWAY_MS : idleMs);
  };
  const check = async () => {
    if (busy) return;
    busy = true;
    try {
      await api("/version");
      away = false;
      if (refused) onValid();
      refused = false;
    } catch (err) {
      away = err instanceof ApiError && err.status === 0;
      refused ||= err instanceof ApiError && err.status === 401;
    } finally {
      busy = false;
      schedule();
    }
  };
  document.addEventListener("visibilitychange", () => (document.visibilityState === "visible" ? check() : clearTimeout(timer)));
  schedule();
}
