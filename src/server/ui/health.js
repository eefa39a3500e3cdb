// @ts-check
// Whether the server is still there, noticed while the page is idle: a light call every few seconds
// (GET /api/version, which carries the token, so a restarted server, whose token is new, refuses it),
// every second while it is away so that its return is noticed at once. What the answers mean is
// api.js's to tell (its listeners: the banner, the page for a fresh link). Hidden tabs do not poll.
import { ApiError, api } from "./api.js";

const IDLE_MS = 5000;
const AWAY_MS = 1000;

/** Polls until the server refuses this page's token (then the page has nothing more to ask it). */
export function watchServer() {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let away = false;
  let busy = false;
  let done = false;
  const schedule = () => {
    clearTimeout(timer);
    if (!done && document.visibilityState !== "hidden") timer = setTimeout(check, away ? AWAY_MS : IDLE_MS);
  };
  const check = async () => {
    if (busy || done) return;
    busy = true;
    try {
      await api("/version");
      away = false;
    } catch (err) {
      away = err instanceof ApiError && err.status === 0;
      done = err instanceof ApiError && err.status === 401;
    } finally {
      busy = false;
      schedule();
    }
  };
  document.addEventListener("visibilitychange", () => (document.visibilityState === "visible" ? check() : clearTimeout(timer)));
  schedule();
}
