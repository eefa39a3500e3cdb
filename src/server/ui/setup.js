// @ts-check
// The page with no agent ready (a fresh machine): at the top, where the user looks, how to get one.
// Install a CLI (the commands for the server's platform, as `od doctor` gives them), or start od with
// a model API for its own loop; then "Check again" probes every agent afresh.
import { $ } from "./page.js";
import { el } from "./tool-card.js";

/** @typedef {import("../setup.ts").InstallHint} InstallHint */
/** @typedef {{ agents: import("./form.js").Agent[], install?: InstallHint[], platform?: string }} Agents as GET /api/agents answers */

/** `NAME=value od serve`, as this platform's shell sets a variable for one command. */
const withVar = (/** @type {string} */ platform, /** @type {string} */ name, /** @type {string} */ value) =>
  platform === "win32" ? `$env:${name}="${value}"; od serve` : `${name}=${value} od serve`;

/** A command as code, with a button that copies it. */
function command(/** @type {string} */ text, /** @type {string} */ what) {
  const copy = el("button", { type: "button", className: "copy", textContent: "Copy" });
  copy.setAttribute("aria-label", `Copy the command for ${what}`);
  copy.addEventListener("click", () =>
    navigator.clipboard?.writeText(text).then(
      () => (copy.textContent = "Copied"),
      () => (copy.textContent = "Select it to copy"),
    ),
  );
  return el("span", { className: "command" }, el("code", { textContent: text }), copy);
}

/** One way to get an agent: its name (and what it is), and the command. */
const way = (/** @type {string} */ name, /** @type {string} */ text, note = "") =>
  el(
    "li",
    {},
    el("span", { className: "way" }, el("strong", { textContent: name }), note && el("small", { textContent: note })),
    command(text, name),
  );

const hintItem = (/** @type {InstallHint} */ h) => way(h.name, h.command);

/** The ways to use od's own loop: a local OpenAI-compatible server, or a provider's key. */
function apiWays(/** @type {string} */ platform) {
  return el(
    "ul",
    { className: "install-list" },
    way("A local model", withVar(platform, "OD_API_BASE_URL", "http://localhost:11434/v1"), "Ollama, LM Studio, vLLM"),
    way("Anthropic", withVar(platform, "ANTHROPIC_API_KEY", "sk-ant-…")),
    way("OpenAI", withVar(platform, "OPENAI_API_KEY", "sk-…")),
  );
}

/**
 * Shows how to get an agent when none of `answer.agents` is installed, else hides it. `check()` probes again
 * (GET /api/agents?refresh=1) and resolves once the page has the new list.
 * @param {Agents} answer
 * @param {() => Promise<void>} check
 */
export function showSetup({ agents, install = [], platform = "linux" }, check) {
  const box = $("setup");
  box.hidden = agents.some((a) => a.installed);
  if (box.hidden) return;
  const featured = install.filter((h) => h.featured);
  const others = install.filter((h) => !h.featured);
  const status = el("span", { className: "muted", role: "status" });
  const again = el("button", { type: "button", className: "primary", textContent: "Check again" });
  again.addEventListener("click", async () => {
    again.disabled = true;
    status.textContent = `Looking for ${agents.length} agents…`;
    await check().finally(() => (again.disabled = false));
    if (!box.hidden) status.textContent = `Still none found (looked at ${new Date().toLocaleTimeString()}).`;
  });
  box.replaceChildren(
    el("h2", { id: "setup-title", tabIndex: -1, textContent: "No agent is ready yet" }),
    el("p", { className: "setup-nudge", role: "alert" }),
    el("p", {
      textContent: "od runs the coding-agent CLIs installed on this machine, and found none. Install one, then check again:",
    }),
    el("ul", { className: "install-list" }, ...featured.map(hintItem)),
    others.length
      ? el(
          "details",
          { className: "more" },
          el("summary", { textContent: `${others.length} more agents od can run` }),
          el("ul", { className: "install-list" }, ...others.map(hintItem)),
        )
      : "",
    el("h3", { textContent: "Or no CLI at all: a model API" }),
    el("p", {
      textContent:
        "od's own loop reads and edits files in the working directory through a model's API. Start od serve again with one of these set (the page then asks for the new link; what you typed is kept):",
    }),
    apiWays(platform),
    el("p", { className: "row actions" }, again, status),
  );
}

/** Run was pressed with no agent ready: said beside Run and at the top of how to get one, where the user is taken. */
export function nudgeSetup() {
  $("run-status").textContent = "Nothing ran: no agent is ready (see above).";
  const nudge = $("setup").querySelector(".setup-nudge");
  if (nudge) nudge.textContent = "No agent is ready to run this: install one of these (or start od with a model API), then Check again.";
  /** @type {HTMLElement | null} */ (document.getElementById("setup-title"))?.focus();
}
