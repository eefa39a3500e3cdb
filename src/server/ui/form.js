// @ts-check
// The new-run form: agent, model (the agent's catalog, or any id typed in), effort, mode, where it runs
// (this machine or a named target), skills, working directory, prompt, and whom to compare with. `readForm` gives the request it describes,
// `fillForm` puts a past run's settings back.
import { api } from "./api.js";
import { $ } from "./page.js";

/** @typedef {import("../../core/contract/events.ts").Mode} Mode */
/** @typedef {import("../../core/agents/detection.ts").Detection & { install?: string, modes: Mode[] }} Agent as GET /api/agents lists it */
/** @typedef {import("../targets.ts").TargetInfo} Target */
/** @typedef {import("../../core/skills/catalog.ts").SkillMeta} Skill */
/** @typedef {import("../../core/store/summary.ts").RunSummary} RunSummary */
/**
 * The request POST /api/runs takes (src/server/routes/runs.ts): the run request, with a named target, never an `on` URL.
 * @typedef {Omit<import("../../core/contract/request.ts").RunRequest, "on"> & { ask?: boolean, target?: string }} RunBody
 */

/** @type {Map<string, Agent>} */
const agents = new Map();
/** @type {Map<string, string>} The server's named targets (GET /api/targets): name → its URL. */
const targets = new Map();

/**
 * @param {string} value
 * @param {Partial<HTMLOptionElement>} [extra]
 */
function option(value, text = value, extra = {}) {
  return Object.assign(document.createElement("option"), { value, textContent: text, ...extra });
}

/** Fills the agent list (installed ones first to choose) and the compare choices; selects the first ready agent. */
export function setAgents(/** @type {Agent[]} */ list) {
  agents.clear();
  for (const a of list) agents.set(a.id, a);
  const label = (/** @type {Agent} */ a) => (a.installed ? `${a.name}${a.version ? ` ${a.version}` : ""}` : `${a.name} (not installed)`);
  // None installed: the list says so (the page says how to get one: setup.js).
  const none = list.some((a) => a.installed) ? [] : [option("", "No agent is ready yet", { disabled: true, selected: true })];
  $("agent").replaceChildren(...none, ...list.map((a) => option(a.id, label(a), { disabled: !a.installed })));
  $("compare-agents").replaceChildren(
    ...list
      .filter((a) => a.installed)
      .map((a) => {
        const box = Object.assign(document.createElement("input"), { type: "checkbox", value: a.id, name: "compare-agent" });
        const item = document.createElement("label");
        item.className = "inline";
        item.append(box, ` ${a.name}`);
        return item;
      }),
  );
  const first = list.find((a) => a.installed);
  if (first) $("agent").value = first.id;
}

/** The selected agent as /api/agents listed it. */
export function currentAgent() {
  return agents.get($("agent").value);
}

/** An agent's name for people ("Fake Agent"), from its id. */
export const agentName = (/** @type {string | undefined} */ id) => (id && agents.get(id)?.name) || id;

/** Loads the agent's models and efforts; the model typed so far is kept unless `resetModel`. */
export async function agentChanged({ resetModel = true } = {}) {
  const agent = currentAgent();
  $("agent-hint").textContent = agent && !agent.installed ? `Install: ${agent.install}` : (agent?.path ?? "");
  if (resetModel) $("model").value = "";
  resetSession();
  if (!agent) return;
  for (const opt of $("mode").options) opt.disabled = !agent.modes.some((m) => m === opt.value);
  /** @type {{ models: string[], efforts: string[], names?: Record<string, string> }} */
  const { models, efforts, names = {} } = await api(`/agents/${encodeURIComponent(agent.id)}/models`);
  if (currentAgent() !== agent) return; // another agent was chosen meanwhile
  $("models").replaceChildren(...models.map((m) => option(m, names[m] ?? m)));
  const effort = $("effort").value;
  $("effort").replaceChildren(option("", "default"), ...efforts.map((e) => option(e)));
  $("effort").value = efforts.includes(effort) ? effort : "";
  $("effort").disabled = efforts.length === 0;
}

/** No session to continue (a new agent, a new form). */
export function resetSession() {
  offerSession(undefined);
}

/** Offers "Continue this session" for `sessionId` (or nothing). */
export function offerSession(/** @type {string | undefined} */ sessionId) {
  $("continue").checked = false;
  $("continue").disabled = !sessionId;
  $("continue-row").hidden = !sessionId;
  $("session").textContent = sessionId ?? "";
  showRunLabel();
}

/** What Run will do, said on its button: "Run", "Continue" (the session), "Run ×2" (repeated), "Compare 3" (agents). */
export function showRunLabel() {
  const spec = readCompare();
  $("run").textContent = spec?.agents
    ? `Compare ${spec.agents.length}`
    : spec?.repeat
      ? `Run ×${spec.repeat}`
      : $("continue").checked
        ? "Continue"
        : "Run";
}

/** Adds "Where" to the form when the server has named targets: this machine, or one of them (sent by name). */
export function setTargets(/** @type {Target[]} */ list) {
  targets.clear();
  for (const t of list) targets.set(t.name, t.on);
  if (!list.length || $("target")) return;
  const select = Object.assign(document.createElement("select"), { id: "target" });
  select.append(option("", "this machine"), ...list.map((t) => option(t.name, `${t.name} (${t.on})`)));
  // On a target the directory is the target's; left empty, its login directory.
  select.addEventListener("change", () => ($("cwd").required = !select.value));
  const label = document.createElement("label");
  label.append("Where ", select);
  $("mode").closest("label")?.after(label);
}

/** A target's name for its URL (a run's `on`), or the URL when no configured target has it. */
export function targetName(/** @type {string} */ on) {
  for (const [name, url] of targets) if (url === on) return name;
  return on;
}

/** The run the form describes, as POST /api/runs takes it. */
export function readForm() {
  const mode = /** @type {Mode} the select's options are the modes (index.html) */ ($("mode").value);
  /** @type {RunBody} */
  const body = { agent: $("agent").value, prompt: $("prompt").value, cwd: $("cwd").value.trim(), mode };
  const target = $("target")?.value;
  if (target) body.target = target;
  if (!body.cwd && body.target) delete body.cwd;
  const model = $("model").value.trim();
  if (model && model !== "default") body.model = model;
  if ($("effort").value) body.effort = $("effort").value;
  if ($("continue").checked && $("session").textContent) body.resume = $("session").textContent;
  if ($("ask").checked) body.ask = true;
  const skills = [...$("skills").selectedOptions].map((o) => o.value);
  if (skills.length) body.skills = skills;
  return body;
}

/** Whom to compare with: several agents (the chosen one first), or the one agent repeated; undefined for a plain run. */
export function readCompare() {
  /** @type {NodeListOf<HTMLInputElement>} */
  const checked = document.querySelectorAll("input[name=compare-agent]:checked");
  const others = [...checked].map((b) => b.value);
  const agent = $("agent").value;
  if (others.some((id) => id !== agent)) return { agents: [agent, ...others.filter((id) => id !== agent)] };
  const repeat = Number($("repeat").value);
  return repeat > 1 ? { repeat } : undefined;
}

/**
 * Puts a run's settings back (agent, model, effort, mode, skills, cwd, prompt): those a run's summary has.
 * @param {Partial<Pick<RunSummary, "agent" | "model" | "mode" | "cwd" | "on" | "prompt">> & { effort?: string, skills?: string[] }} request
 */
export async function fillForm(request) {
  if (request.agent && agents.has(request.agent) && request.agent !== $("agent").value) {
    $("agent").value = request.agent;
    await agentChanged().catch(() => {});
  }
  $("model").value = request.model && request.model !== "default" ? request.model : "";
  if (request.effort !== undefined) $("effort").value = request.effort;
  if (request.mode) $("mode").value = request.mode;
  if (request.cwd) $("cwd").value = request.cwd;
  const target = $("target");
  if (target) {
    const name = request.on ? targetName(request.on) : "";
    target.value = targets.has(name) ? name : "";
    $("cwd").required = !target.value;
  }
  if (request.prompt !== undefined) $("prompt").value = request.prompt;
  const skills = new Set(request.skills ?? []);
  for (const opt of $("skills").options) opt.selected = skills.has(opt.value);
}

/** Fills the skills list. */
export function setSkills(/** @type {Skill[]} */ skills) {
  $("skills").replaceChildren(...skills.map((s) => option(s.name, `${s.name} — ${s.description}`, { title: s.description })));
  $("skills-field").hidden = skills.length === 0;
}
