// @ts-check
// A permission request in words ("Pi wants to run `rm -rf build`"), with Allow/Deny and the time left.
import { el, mainArgument } from "./tool-card.js";

/** @typedef {import("../../core/contract/events.ts").BodyOf<"permission.request"> & { ts?: number }} PermissionRequest */
/** @typedef {import("../../core/contract/events.ts").BodyOf<"permission.decision">} PermissionDecision */

/** The server's broker denies an unanswered request after this long (settle's default in src/core/run/permissions.ts). */
export const PERMISSION_TIMEOUT_MS = 120_000;

/** @type {Record<string, string>} */
const VERBS = {
  bash: "run",
  shell: "run",
  execute: "run",
  exec: "run",
  run: "run",
  run_shell_command: "run",
  write: "write",
  write_file: "write",
  edit: "edit",
  replace: "edit",
  read: "read",
  read_file: "read",
  fetch: "fetch",
  web_fetch: "fetch",
  delete: "delete",
};

/** "run", "edit", … for the tools with an obvious verb; an agent's own phrase ("Run ls") as a phrase; else "use <tool>". */
function verb(/** @type {string} */ tool) {
  const known = VERBS[tool.toLowerCase()];
  if (known) return known;
  if (/^[A-Z][a-z]+ \S/.test(tool)) return tool.charAt(0).toLowerCase() + tool.slice(1);
  return `use ${tool}`;
}

/** The detail as one line of code: a JSON input's command or path when it has one. */
function detailText(/** @type {string | undefined} */ detail) {
  if (!detail) return "";
  try {
    const parsed = JSON.parse(detail);
    if (parsed && typeof parsed === "object") return mainArgument(parsed);
  } catch {}
  return mainArgument(detail);
}

function timeLeft(/** @type {number} */ ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function outcome(/** @type {PermissionDecision} */ e) {
  const what = e.decision === "allow" ? "Allowed" : "Denied";
  if (e.by === "timeout") return `${what}: ${e.reason ?? "nobody answered in time"}`;
  // The broker's "allowed by the user" says again what "by you" says.
  const reason = e.reason && !/by the user$/.test(e.reason) ? `: ${e.reason}` : "";
  return `${what} ${e.by === "user" ? "by you" : "by policy"}${reason}`;
}

/** A permission box; `decide(decision)` takes the `permission.decision` event for it. */
/**
 * @param {PermissionRequest} req
 * @param {{ agentName?: string, answer: (id: string, decision: "allow" | "deny") => Promise<unknown>, now?: () => number }} options
 */
export function createPermission(req, { agentName, answer, now = Date.now }) {
  const detail = detailText(req.detail);
  const action = verb(req.tool || "tool");
  const shown = detail && !action.includes(detail); // "run ls" needs no `ls` after it
  const deadline = (typeof req.ts === "number" ? req.ts : now()) + PERMISSION_TIMEOUT_MS;
  const timer = el("p", { className: "perm-timer" });
  const error = el("p", { className: "perm-error", role: "alert" });
  const buttons = /** @type {const} */ (["allow", "deny"]).map((decision) =>
    el("button", {
      type: "button",
      className: `perm-${decision}`,
      textContent: decision === "allow" ? "Allow" : "Deny",
      onclick: () => send(decision),
    }),
  );
  const actions = el("div", { className: "perm-actions" }, ...buttons);
  const question = el(
    "p",
    { className: "perm-question" },
    el("strong", { textContent: agentName || "The agent" }),
    ` wants to ${action}`,
    shown ? " " : "",
    shown ? el("code", { textContent: detail, title: req.detail ?? "" }) : null,
  );
  const node = el("section", { className: "permission", role: "group", ariaLabel: "Permission request" }, question, timer, actions, error);
  node.dataset.state = "pending";

  let attached = false;
  const tick = () => {
    const left = deadline - now();
    timer.textContent = left > 0 ? `Denied automatically in ${timeLeft(left)} without an answer.` : "No answer: denying it…";
    // The countdown stops at zero, and once its box has left the page (the next run replaced it).
    attached ||= node.isConnected;
    if (left <= 0 || (attached && !node.isConnected)) stop();
  };
  const interval = setInterval(tick, 1000);
  const stop = () => clearInterval(interval);
  tick();

  async function send(/** @type {"allow" | "deny"} */ decision) {
    for (const b of buttons) b.disabled = true;
    error.textContent = "";
    try {
      await answer(req.id, decision);
    } catch (err) {
      error.textContent = `Could not send the answer: ${err instanceof Error ? err.message : err}`;
      for (const b of buttons) b.disabled = false;
    }
  }

  return {
    node,
    decide(/** @type {PermissionDecision} */ e) {
      stop();
      // Focus on a button that goes would fall back to the page's start: it stays on the box.
      const hadFocus = actions.contains(document.activeElement);
      actions.remove();
      timer.remove();
      error.textContent = "";
      node.dataset.state = e.decision === "allow" ? "allowed" : "denied";
      node.append(el("p", { className: "perm-outcome", textContent: outcome(e) }));
      if (hadFocus) {
        node.tabIndex = -1;
        node.focus();
      }
    },
  };
}
