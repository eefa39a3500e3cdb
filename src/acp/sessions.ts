import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentContext, SessionConfigOption, SessionModeState, SessionUpdate } from "@agentclientprotocol/sdk";
import { detectCached } from "../core/agents/detect-cache.ts";
import { listModels, type ModelList } from "../core/agents/models.ts";
import type { Registry } from "../core/agents/registry.ts";
import { OdError } from "../core/contract/errors.ts";
import { Mode } from "../core/contract/events.ts";
import type { McpServer } from "../core/contract/mcp.ts";
import type { Env } from "../core/contract/request.ts";
import { odHome } from "../core/os/paths.ts";
import type { RunLog } from "../core/store/run-log.ts";
import { newUpdateState, toUpdates } from "./updates.ts";

/** One ACP session: which agent runs its prompts, how, and the inner agent's session that continues it. */
export interface AcpSession {
  id: string;
  cwd: string;
  agent: string;
  /** Undefined: the agent's default model (no model flag). */
  model?: string;
  mode: Mode;
  /** The inner agent's session id, from its last run: the next prompt resumes it. */
  resume?: string;
  /** od's run ids of this session's prompts, oldest first (session/load replays them). */
  runs: string[];
  /** The prompt now running, if any. */
  running?: AbortController;
  /** The MCP servers the client gave in session/new or session/load: every prompt's run gets them; never saved (they may hold credentials). */
  mcpServers?: McpServer[];
}

/** What the sessions' options are built from. */
export interface SessionDeps {
  registry: Registry;
  env: Env;
  /** `--agent`: when given, the session's agent is fixed and offered as no option. */
  fixedAgent?: string;
  /** `--mode`: the most authority a session may have. */
  ceiling: Mode;
}

const MODE_NAMES: Record<Mode, string> = { "read-only": "Read only", edit: "Edit files", full: "Full access" };
/** How long session/new waits for an agent's model catalog before offering its aliases (the catalog follows). */
const CATALOG_WAIT_MS = 2000;

/** od's modes up to the ceiling (read-only only for an agent od can hold to it): a client may narrow the mode, never widen it. */
export function modeState(s: AcpSession, deps: SessionDeps): SessionModeState {
  const adapter = deps.registry.get(s.agent)?.adapter;
  const allowed = Mode.options
    .slice(0, Mode.options.indexOf(deps.ceiling) + 1)
    .filter((m) => m !== "read-only" || adapter?.capabilities.readOnly !== false);
  return { currentModeId: s.mode, availableModes: allowed.map((id) => ({ id, name: MODE_NAMES[id] })) };
}

export function setMode(s: AcpSession, modeId: string, deps: SessionDeps): void {
  if (!modeState(s, deps).availableModes.some((m) => m.id === modeId))
    throw new OdError(
      "INVALID_REQUEST",
      `Mode "${modeId}" is not available in this session`,
      `od acp was started with --mode ${deps.ceiling}; a session may take that mode or a narrower one.`,
    );
  s.mode = modeId as Mode;
}

const select = (id: string, name: string, current: string, values: { value: string; name: string }[]): SessionConfigOption => ({
  type: "select",
  id,
  name,
  category: id === "model" ? "model" : null,
  currentValue: current,
  options: values,
});

/** The session's config options, and when the agent's model catalog came too late for them, the options it completes. */
export interface Described {
  options: SessionConfigOption[];
  later?: Promise<SessionConfigOption[] | undefined>;
}

/**
 * The session's config options: "agent" (the ready agents, unless --agent fixed one) and "model" (the
 * agent's catalog). A catalog not cached costs the agent's own listing (seconds): after `waitMs` the
 * options offer the adapter's aliases, and `later` has the catalog's when it comes.
 */
export async function configOptions(s: AcpSession, deps: SessionDeps, waitMs = CATALOG_WAIT_MS): Promise<Described> {
  const options: SessionConfigOption[] = [];
  if (!deps.fixedAgent) {
    const adapters = deps.registry.list().map((e) => e.adapter);
    const { detections } = await detectCached(adapters, { env: deps.env });
    const ready = new Set(detections.filter((d) => d.status === "ready").map((d) => d.id));
    const ids = adapters.filter((a) => ready.has(a.id) || a.id === s.agent);
    options.push(
      select(
        "agent",
        "Agent",
        s.agent,
        ids.map((a) => ({ value: a.id, name: a.name })),
      ),
    );
  }
  const agent = s.agent;
  const fetching = listModels(deps.registry, agent, { env: deps.env }).catch(() => undefined);
  let timer: Timer | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), waitMs);
  });
  const list = await Promise.race([fetching, late]);
  clearTimeout(timer);
  const aliases = { models: ["default", ...(deps.registry.get(agent)?.adapter.models ?? [])] };
  const model = (l: Pick<ModelList, "models" | "names">) => select("model", "Model", s.model ?? "default", modelValues(l, s.model));
  const head = [...options];
  options.push(model(list === "late" || !list ? aliases : list));
  if (list !== "late") return { options };
  return { options, later: fetching.then((l) => (l && s.agent === agent ? [...head, model(l)] : undefined)) };
}

function modelValues(list: Pick<ModelList, "models" | "names">, current: string | undefined): { value: string; name: string }[] {
  const ids = [...new Set([...list.models, ...(current ? [current] : [])])];
  return ids.map((value) => ({ value, name: list.names?.[value] ?? value }));
}

/** session/set_config_option: another agent (its model back to default; refused when it cannot hold the session's mode) or another model. */
export function setOption(s: AcpSession, configId: string, value: unknown, deps: SessionDeps): void {
  if (typeof value !== "string") throw new OdError("INVALID_REQUEST", `Option "${configId}" takes a string value`);
  if (configId === "model") s.model = value === "default" ? undefined : value;
  else if (configId === "agent" && !deps.fixedAgent) {
    const adapter = deps.registry.get(value)?.adapter;
    if (!adapter) throw new OdError("AGENT_UNKNOWN", `No adapter named "${value}"`, "Pick one of the agent option's values.");
    if (s.mode === "read-only" && !adapter.capabilities.readOnly)
      throw new OdError("INVALID_REQUEST", `${adapter.name} has no read-only mode od can enforce`, "Pick an agent with a read-only mode.");
    if (value !== s.agent) Object.assign(s, { agent: value, model: undefined, resume: undefined });
  } else throw new OdError("INVALID_REQUEST", `No config option "${configId}"`, 'This session has the options "agent" and "model".');
}

/** Sessions are kept in OD_HOME/acp-sessions/<id>.json, so a later `od acp` can load them (session/load). */
const fileOf = (env: Env, id: string) => join(odHome(env), "acp-sessions", `${id.replace(/[^\w.-]/g, "_")}.json`);

export function saveSession(s: AcpSession, env: Env): void {
  const { running: _running, mcpServers: _mcpServers, ...kept } = s;
  const file = fileOf(env, s.id);
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(`${file}.tmp`, JSON.stringify(kept));
  renameSync(`${file}.tmp`, file);
}

export function readSession(id: string, env: Env): AcpSession | undefined {
  try {
    const s = JSON.parse(readFileSync(fileOf(env, id), "utf8")) as AcpSession;
    return typeof s.agent === "string" && Array.isArray(s.runs) ? s : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The conversation so far, as ACP's session/load asks: each of the session's prompts (from its run's
 * request.json in od's run log) as the user's message, then what the agent did, as it was streamed.
 * A session that began elsewhere (an agent's own session id) has no od runs, so nothing to replay.
 */
export function history(s: AcpSession, log: RunLog): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  for (const runId of s.runs) {
    if (!log.has(runId)) continue;
    const prompt = log.request(runId)?.prompt;
    if (typeof prompt === "string") updates.push({ sessionUpdate: "user_message_chunk", content: { type: "text", text: prompt } });
    const state = newUpdateState();
    for (const event of log.read(runId)) updates.push(...toUpdates(event, state));
  }
  return updates;
}

/** Sends the history to the client before session/load answers. */
export async function replay(s: AcpSession, log: RunLog, client: Pick<AgentContext, "notify">): Promise<void> {
  for (const update of history(s, log)) await client.notify("session/update", { sessionId: s.id, update });
}
