import { isAbsolute } from "node:path";
import type {
  AgentContext,
  InitializeResponse,
  LoadSessionRequest,
  NewSessionRequest,
  NewSessionResponse,
  PromptRequest,
  PromptResponse,
  SessionConfigOption,
  SessionModeState,
} from "@agentclientprotocol/sdk";
import { selectAgent } from "../core/agents/select.ts";
import { OdError } from "../core/contract/errors.ts";
import type { Mode } from "../core/contract/events.ts";
import { type McpServer, McpServers } from "../core/contract/mcp.ts";
import { z } from "../core/contract/zod.ts";
import { VERSION } from "../core/os/version.ts";
import type { Od } from "../od.ts";
import { runPrompt } from "./prompt.ts";
import {
  type AcpSession,
  configOptions,
  modeState,
  readSession,
  replay,
  type SessionDeps,
  saveSession,
  setMode,
  setOption,
} from "./sessions.ts";

export interface AcpOptions {
  /** od: its registry, and the run service every prompt's run is started on (recorded with origin "acp"). */
  od: Pick<Od, "registry" | "runs" | "log" | "env">;
  /** `--agent`: every session runs this agent, and offers no other. */
  agent?: string;
  /** `--mode`: each session's mode and the most it may take (default edit). */
  mode?: Mode;
  /** `--model`: each new session's model. */
  model?: string;
  /** Diagnostics; stdout is the protocol's, so this goes to stderr. */
  log: (message: string) => void;
  /** Ends the connection (od's stop signals): runs are cancelled as when the client goes. */
  signal?: AbortSignal;
}

type Described = { modes: SessionModeState; configOptions: SessionConfigOption[] };

/** The ACP agent's methods over od: each session runs its prompts on one od agent through `createRun`. */
export class OdAcpAgent {
  readonly deps: SessionDeps;
  private readonly sessions = new Map<string, AcpSession>();
  private readonly prompts = new Set<Promise<unknown>>();
  private readonly env: Record<string, string | undefined>;

  constructor(private readonly opts: AcpOptions) {
    this.env = opts.od.env;
    this.deps = { registry: opts.od.registry, env: this.env, fixedAgent: opts.agent, ceiling: opts.mode ?? "edit" };
  }

  /** Capabilities as the agent a new session gets has them: images, MCP servers over HTTP, and session/load for an agent that resumes. */
  async initialize(): Promise<InitializeResponse> {
    const agentId = await this.defaultAgent().catch(() => undefined);
    const caps = agentId ? this.deps.registry.get(agentId)?.adapter.capabilities : undefined;
    return {
      protocolVersion: 1,
      agentCapabilities: {
        loadSession: caps?.resume ?? false,
        promptCapabilities: { image: caps?.images ?? false, audio: false, embeddedContext: true },
        // Servers of every transport are taken; one the agent cannot take is left out, and the run says so.
        mcpCapabilities: { http: caps?.mcpServers ?? false, sse: caps?.mcpServers ?? false },
      },
      authMethods: [],
      agentInfo: { name: "od", title: "od", version: VERSION },
    };
  }

  async newSession(params: NewSessionRequest, client: AgentContext): Promise<NewSessionResponse> {
    const cwd = absolute(params.cwd);
    const agentId = await this.defaultAgent();
    this.adapter(agentId);
    const mcpServers = clientServers(params.mcpServers);
    const s: AcpSession = {
      id: crypto.randomUUID(),
      cwd,
      agent: agentId,
      model: this.opts.model,
      mode: this.deps.ceiling,
      runs: [],
      mcpServers,
    };
    this.sessions.set(s.id, s);
    saveSession(s, this.env);
    return { sessionId: s.id, ...(await this.described(s, client)) };
  }

  /** A session od kept (OD_HOME/acp-sessions), or an agent's own session id (as `od run --resume` takes it), replayed then resumed. */
  async loadSession(params: LoadSessionRequest, client: AgentContext): Promise<Described> {
    const cwd = absolute(params.cwd);
    const stored = this.sessions.get(params.sessionId) ?? readSession(params.sessionId, this.env);
    const s: AcpSession = stored ?? { id: params.sessionId, agent: await this.defaultAgent(), mode: this.deps.ceiling, runs: [], cwd };
    if (!stored) s.resume = params.sessionId;
    s.mcpServers = clientServers(params.mcpServers);
    if (this.opts.agent && s.agent !== this.opts.agent)
      throw new OdError(
        "INVALID_REQUEST",
        `Session ${s.id} belongs to ${s.agent}, not ${this.opts.agent}`,
        `Load it with od acp --agent ${s.agent}.`,
      );
    if (!this.adapter(s.agent).capabilities.resume)
      throw new OdError("INVALID_REQUEST", `${s.agent} cannot resume a session`, "Start a new session instead.");
    s.cwd = cwd;
    // A session kept with a wider mode than this od acp allows comes back at its ceiling.
    if (!modeState(s, this.deps).availableModes.some((m) => m.id === s.mode)) s.mode = this.deps.ceiling;
    this.sessions.set(s.id, s);
    await replay(s, this.opts.od.log, client);
    return this.described(s, client);
  }

  setMode(sessionId: string, modeId: string): void {
    setMode(this.session(sessionId), modeId, this.deps);
  }

  async setConfigOption(sessionId: string, configId: string, value: unknown, client: AgentContext): Promise<SessionConfigOption[]> {
    const s = this.session(sessionId);
    setOption(s, configId, value, this.deps);
    saveSession(s, this.env);
    return (await this.described(s, client)).configOptions;
  }

  prompt(params: PromptRequest, client: AgentContext): Promise<PromptResponse> {
    const s = this.session(params.sessionId);
    const turn = runPrompt(s, params.prompt, { client, runs: this.opts.od.runs, log: this.opts.log }).finally(() =>
      saveSession(s, this.env),
    );
    this.prompts.add(turn);
    return turn.finally(() => this.prompts.delete(turn));
  }

  cancel(sessionId: string): void {
    this.sessions.get(sessionId)?.running?.abort();
  }

  /** The client has gone: nothing it started runs on. Resolves once every run has ended. */
  async close(): Promise<void> {
    for (const s of this.sessions.values()) s.running?.abort();
    await Promise.allSettled([...this.prompts]);
  }

  private session(id: string): AcpSession {
    const s = this.sessions.get(id);
    if (!s) throw new OdError("RUN_NOT_FOUND", `No session ${id}`, "Start one with session/new, or load it with session/load.");
    return s;
  }

  private adapter(agentId: string) {
    const adapter = this.deps.registry.get(agentId)?.adapter;
    if (!adapter) throw new OdError("AGENT_UNKNOWN", `No adapter named "${agentId}"`, "See `od agents`.");
    return adapter;
  }

  private async defaultAgent(): Promise<string> {
    return this.opts.agent ?? (await selectAgent(this.deps.registry, undefined, this.env)).agent;
  }

  /** The session's modes and options; a model catalog that comes late follows as a config_option_update. */
  private async described(s: AcpSession, client: AgentContext): Promise<Described> {
    const { options, later } = await configOptions(s, this.deps);
    later
      ?.then((configOptions) => {
        if (configOptions)
          return client.notify("session/update", { sessionId: s.id, update: { sessionUpdate: "config_option_update", configOptions } });
      })
      .catch(() => {});
    return { modes: modeState(s, this.deps), configOptions: options };
  }
}

/** The client's MCP servers, held to the run request's shapes before any reaches an agent (contract/mcp.ts). */
function clientServers(given: unknown): McpServer[] {
  const parsed = McpServers.safeParse(given ?? []);
  if (!parsed.success)
    throw new OdError(
      "INVALID_REQUEST",
      `mcpServers: ${z.prettifyError(parsed.error)}`,
      "Name each server with letters, digits, '_' and '-'.",
    );
  return parsed.data;
}

function absolute(cwd: string): string {
  if (!isAbsolute(cwd)) throw new OdError("INVALID_REQUEST", `cwd must be an absolute path: ${cwd}`);
  return cwd;
}
