// The od web UI: plain DOM, no framework. Talks to /api with the cookie the launch URL set.
const $ = (id) => document.getElementById(id);
const state = { source: null, runId: null, sessionId: null, agent: null };

async function api(path, init) {
  const res = await fetch(`/api${path}`, { ...init, headers: { "content-type": "application/json", ...(init?.headers ?? {}) } });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(body.error ? `${body.error.message}${body.error.hint ? ` (${body.error.hint})` : ""}` : res.statusText);
  return body;
}

function el(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children.filter((c) => c !== undefined && c !== null));
  return node;
}

async function loadAgents() {
  const { agents } = await api("/agents");
  const select = $("agent");
  select.replaceChildren(
    ...agents.map((a) =>
      el("option", {
        value: a.id,
        disabled: !a.installed,
        textContent: a.installed ? `${a.name} ${a.version ?? ""}` : `${a.name} (not installed)`,
      }),
    ),
  );
  state.agents = new Map(agents.map((a) => [a.id, a]));
  const first = agents.find((a) => a.installed);
  if (first) select.value = first.id;
  await agentChanged();
}

async function agentChanged() {
  const agent = state.agents?.get($("agent").value);
  $("agent-hint").textContent = agent && !agent.installed ? `Install: ${agent.install}` : (agent?.path ?? "");
  if (!agent) return;
  const { models, efforts } = await api(`/agents/${agent.id}/models`);
  $("model").replaceChildren(...models.map((m) => el("option", { value: m, textContent: m })));
  $("effort").replaceChildren(
    el("option", { value: "", textContent: "default" }),
    ...efforts.map((e) => el("option", { value: e, textContent: e })),
  );
  $("effort").disabled = efforts.length === 0;
  for (const opt of $("mode").options) opt.disabled = !agent.modes.includes(opt.value);
  resetSession();
}

function resetSession() {
  state.sessionId = null;
  $("continue").checked = false;
  $("continue").disabled = true;
  $("session").textContent = "";
}

async function loadSkills() {
  const { skills } = await api("/skills");
  $("skills").replaceChildren(
    ...skills.map((s) => el("option", { value: s.name, textContent: `${s.name} — ${s.description}`, title: s.description })),
  );
}

async function loadRuns() {
  const { runs } = await api("/runs?limit=30");
  $("runs").replaceChildren(
    ...runs.map((r) =>
      el(
        "li",
        {},
        el(
          "button",
          { type: "button", onclick: () => watch(r.runId), title: r.prompt ?? "" },
          `${r.agent ?? "?"}: ${(r.prompt ?? "").slice(0, 40)}`,
          el("span", { className: `badge ${r.status}`, textContent: r.status }),
        ),
      ),
    ),
  );
}

/** The attached images go up first (as base64 JSON); the run gets their paths on the server. */
async function uploadImages() {
  const paths = [];
  for (const file of $("images").files) {
    const data = await new Promise((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result).split(",")[1]);
      reader.onerror = () => reject(reader.error);
      reader.readAsDataURL(file);
    });
    paths.push((await api("/uploads", { method: "POST", body: JSON.stringify({ name: file.name, data }) })).path);
  }
  return paths;
}

async function start(event) {
  event.preventDefault();
  const body = { agent: $("agent").value, prompt: $("prompt").value, cwd: $("cwd").value, mode: $("mode").value };
  if ($("model").value && $("model").value !== "default") body.model = $("model").value;
  if ($("effort").value) body.effort = $("effort").value;
  if ($("continue").checked && state.sessionId) body.resume = state.sessionId;
  if ($("ask").checked) body.ask = true;
  const skills = [...$("skills").selectedOptions].map((o) => o.value);
  if (skills.length) body.skills = skills;
  try {
    const images = await uploadImages();
    if (images.length) body.images = images;
    const { runId } = await api("/runs", { method: "POST", body: JSON.stringify(body) });
    $("images").value = "";
    $("prompt").value = "";
    watch(runId);
    loadRuns();
  } catch (err) {
    $("run-status").textContent = `Could not start: ${err.message}`;
  }
}

/** Streams a run (live, or replayed from its log) into the output panel. */
function watch(runId) {
  state.source?.close();
  state.runId = runId;
  const out = $("output");
  out.replaceChildren();
  $("usage").textContent = "";
  $("run-status").textContent = "running…";
  $("cancel").disabled = false;
  const parts = new Map();
  const source = new EventSource(`/api/runs/${runId}/events`);
  state.source = source;
  const on = (type, fn) => source.addEventListener(type, (m) => fn(JSON.parse(m.data)));
  const part = (id, make) => parts.get(id) ?? parts.set(id, make()).get(id);
  // A sub-agent's activity goes inside the tool call it runs under (e.g. Claude's Task).
  const home = (e) => (e.parent && parts.get(`c${e.parent}`)) || out;
  on("run.started", (e) => ($("run-status").textContent = `${e.agent} in ${e.cwd} (${e.mode})`));
  on("session", (e) => (state.sessionId = e.sessionId));
  on("status", (e) => out.append(el("div", { className: "status", textContent: `· ${e.label}${e.detail ? `: ${e.detail}` : ""}` })));
  on("text.delta", (e) => part(`t${e.id}`, () => home(e).appendChild(el("div", { className: "text" }))).append(e.text));
  on("thinking.delta", (e) =>
    part(`k${e.id}`, () =>
      home(e).appendChild(el("details", { className: "thinking" }, el("summary", { textContent: "thinking" }), el("pre"))),
    ).lastChild.append(e.text),
  );
  on("tool.call", (e) =>
    parts.set(
      `c${e.id}`,
      home(e).appendChild(
        el(
          "details",
          { className: "tool" },
          el("summary", { textContent: `tool: ${e.name}` }),
          el("pre", { textContent: JSON.stringify(e.input, null, 2) }),
        ),
      ),
    ),
  );
  on("tool.result", (e) => {
    const box =
      parts.get(`c${e.id}`) ?? out.appendChild(el("details", { className: "tool" }, el("summary", { textContent: "tool result" })));
    if (e.isError) box.classList.add("failed");
    box.append(el("pre", { textContent: e.output }));
  });
  on("permission.request", (e) => {
    const answer = (decision) =>
      api(`/runs/${runId}/permissions/${encodeURIComponent(e.id)}`, { method: "POST", body: JSON.stringify({ decision }) }).catch(() => {});
    const box = el(
      "div",
      { className: "permission", role: "group", ariaLabel: "Permission request" },
      el("span", { textContent: `? ${e.tool}${e.detail ? `: ${e.detail}` : ""} ` }),
      el("button", { type: "button", textContent: "Allow", onclick: () => answer("allow") }),
      el("button", { type: "button", textContent: "Deny", onclick: () => answer("deny") }),
    );
    parts.set(`perm${e.id}`, out.appendChild(box));
  });
  on("permission.decision", (e) => {
    const line = el("div", {
      className: "status",
      textContent: `· permission ${e.decision === "allow" ? "granted" : "denied"} (${e.reason ?? e.by})`,
    });
    const box = parts.get(`perm${e.id}`);
    box ? box.replaceWith(line) : out.append(line);
  });
  // The run's usage summed over its turns, as od's pipeline counts it for every surface.
  on("run.result", ({ usage: u }) => {
    if (!u) return;
    $("usage").textContent = [
      u.inputTokens !== undefined && `${u.inputTokens} in`,
      u.outputTokens !== undefined && `${u.outputTokens} out`,
      u.costUsd !== undefined && `$${u.costUsd.toFixed(4)}`,
    ]
      .filter(Boolean)
      .join(" · ");
  });
  on("error", (e) => out.append(el("div", { className: "error", textContent: `✗ ${e.message}${e.hint ? `\nhint: ${e.hint}` : ""}` })));
  on("run.finished", (e) => {
    source.close();
    $("cancel").disabled = true;
    $("run-status").textContent = `${e.status} in ${(e.durationMs / 1000).toFixed(1)}s`;
    if (e.resumable && e.sessionId) {
      state.sessionId = e.sessionId;
      $("continue").disabled = false;
      $("session").textContent = e.sessionId;
    }
    loadRuns();
  });
}

async function cancel() {
  if (state.runId) await api(`/runs/${state.runId}/cancel`, { method: "POST", body: "{}" }).catch(() => {});
}

$("form").addEventListener("submit", start);
$("agent").addEventListener("change", agentChanged);
$("cancel").addEventListener("click", cancel);
$("prompt").addEventListener("keydown", (e) => e.key === "Enter" && (e.ctrlKey || e.metaKey) && $("form").requestSubmit());
const { version, cwd } = await api("/version");
$("version").textContent = `v${version}`;
$("cwd").value = cwd;
await Promise.all([loadAgents(), loadRuns(), loadSkills()]);
