// @ts-check
// The page's one way to the JSON API: the token travels in the cookie the launch URL set.
// A refused token (401: the server restarted with a new one) and an unreachable server are told
// to whoever listens (the banner), besides failing the call.

/** A failed call: the server's message and hint, its status (0: no answer at all) and error code. */
export class ApiError extends Error {
  /**
   * @param {string} message
   * @param {{ status?: number, code?: string, hint?: string }} [details]
   */
  constructor(message, { status = 0, code = "CONNECTION", hint } = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.hint = hint;
  }

  /** The message with its hint, for people. */
  get text() {
    return this.hint ? `${this.message} (${this.hint})` : this.message;
  }
}

/** @typedef {{ unauthorized: () => void, offline: (err: ApiError) => void, online: () => void }} Listeners */

/** @type {Listeners} */
const listeners = { unauthorized: () => {}, offline: () => {}, online: () => {} };

/** Who hears of a 401 (the page must get a fresh link), of a server that does not answer, and of one that does again. */
export function onApiTrouble(/** @type {Partial<Listeners>} */ hooks) {
  Object.assign(listeners, hooks);
}

/**
 * `init` as for fetch; a JSON body needs no content type of its own. Resolves to the parsed JSON
 * answer, as the server sent it: the caller knows what the route answers.
 * @param {string} path
 * @param {RequestInit} [init]
 * @returns {Promise<any>}
 */
export async function api(path, init = {}) {
  let res;
  try {
    res = await fetch(`/api${path}`, { ...init, headers: { "content-type": "application/json", ...(init.headers ?? {}) } });
  } catch {
    const err = new ApiError("Cannot reach the od server", { hint: "is `od serve` still running?" });
    listeners.offline(err);
    throw err;
  }
  const body = await res.json().catch(() => ({}));
  listeners.online();
  if (res.status === 401) {
    listeners.unauthorized();
    throw new ApiError("This page's link is no longer valid", {
      status: 401,
      code: "UNAUTHORIZED",
      hint: "open the link od serve printed",
    });
  }
  if (!res.ok) {
    const e = body.error ?? {};
    throw new ApiError(e.message ?? `${res.status} ${res.statusText}`, { status: res.status, code: e.code ?? "HTTP", hint: e.hint });
  }
  return body;
}

/** A POST with a JSON body (the server refuses state-changing requests without one). */
export function post(/** @type {string} */ path, /** @type {unknown} */ body = {}) {
  return api(path, { method: "POST", body: JSON.stringify(body) });
}
