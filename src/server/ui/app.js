// @ts-check
// The od web UI: plain DOM, no framework, bundled at build time. This module wires the parts together:
// the form (form.js), the history (history.js), the output panel (output.js: a run, a conversation or a
// compare run), what the page says about its connection (banner.js), and the Usage view (usage.js),
// which mounts itself with its link in the header.
import { api, onApiTrouble } from "./api.js";
import { serverAnswered, serverAway, showFreshLink, showWorkbench } from "./banner.js";
import { takeDraft } from "./draft.js";
import { agentChanged, currentAgent, fillForm, setAgents, setSkills, setTargets, showRunLabel } from "./form.js";
import { watchServer } from "./health.js";
import { initHistory, loadHistory } from "./history.js";
import { cancel, failure, onRunsChanged, open, refused, setLive, showAlert, shownRun, start } from "./output.js";
import { $ } from "./page.js";
import { showSetup } from "./setup.js";
import { initTabs, selectTab } from "./tabs.js";
import { mountUsage } from "./usage.js";

const loadRuns = () => loadHistory(shownRun());

/** The agents (probed afresh when `refresh`: "Check again"), and how to get one when none is ready. */
async function loadAgents(refresh = false) {
  /** @type {import("./setup.js").Agents} */
  const answer = await api(`/agents${refresh ? "?refresh=1" : ""}`);
  const before = currentAgent();
  setAgents(answer.agents);
  showSetup(answer, () => loadAgents(true));
  if (!refresh || before?.installed || !currentAgent()?.installed) return;
  // "Check again" found one: the page is ready to run.
  $("alert").hidden = true;
  $("run-status").textContent = `${currentAgent()?.name} is ready.`;
  $("agent").focus();
  await agentChanged();
}

async function boot() {
  mountUsage(); // the Usage view (#usage) and the header's links to it
  onApiTrouble({ unauthorized: showFreshLink, offline: serverAway, online: serverAnswered });
  onRunsChanged(() => loadRuns().catch(() => {}));
  initTabs();
  // What is opened or started shows in the output (on a phone, its tab).
  initHistory((record) => {
    selectTab("work");
    open(record);
  });
  $("form").addEventListener("submit", (e) => {
    e.preventDefault();
    selectTab("work");
    start();
  });
  $("agent").addEventListener("change", () => agentChanged().catch(() => {}));
  $("cancel").addEventListener("click", cancel);
  $("form").addEventListener("keydown", (e) => e.key === "Enter" && (e.ctrlKey || e.metaKey) && $("form").requestSubmit());
  for (const type of ["input", "change"]) $("form").addEventListener(type, showRunLabel);
  const { version, cwd } = await api("/version");
  $("version").textContent = `v${version}`;
  $("cwd").value = cwd;
  const [{ skills }, { targets }] = await Promise.all([api("/skills"), api("/targets"), loadAgents(), loadRuns()]);
  setSkills(skills);
  setTargets(targets);
  if (targets.length) loadRuns().catch(() => {}); // again, with the targets' names
  await agentChanged();
  await restoreDraft();
  // Back from the page for a fresh link: nothing is live any more (the old server's runs ended with it).
  watchServer(() => {
    if (!showWorkbench()) return;
    setLive(false);
    loadRuns().catch(() => {});
  });
}

/** What the user had typed before the server restarted (its new link opened in this tab), back in the form. */
async function restoreDraft() {
  const draft = takeDraft();
  if (!draft) return;
  await fillForm(draft);
  $("ask").checked = Boolean(draft.ask);
  showRunLabel();
  $("run-status").textContent = "What you typed before the server restarted is restored.";
}

boot().catch((err) => {
  if (!refused(err)) showAlert(`The page could not load: ${failure(err)}`);
});
