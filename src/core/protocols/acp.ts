import { errorFromText } from "../agents/classify-text.ts";
import type { OdEventBody } from "../events.ts";
import type { ActionKind, Decision, PermissionAsk } from "../run/permissions.ts";
import { VERSION } from "../version.ts";
import { acpModelStep, type ModelChoice } from "./acp-models.ts";
import { sessionUpdate, toolEvents, type UpdateState } from "./acp-updates.ts";
import type { DriverContext, DriverStep } from "./driver.ts";
import { defineDriver } from "./driver.ts";
import { arr, asRecord, num, type Rec, str } from "./parse-helpers.ts";

/**
 * The client side of the Agent Client Protocol (JSON-RPC 2.0, one frame per
 * line): initialize → session/new (or session/load to resume) → model
 * selection → session/prompt; session/update notifications become events, the
 * agent's permission requests go to the broker, the prompt's response ends the turn.
 */

export interface AcpState extends UpdateState {
  ctx: DriverContext;
  nextId: number;
  /** What each of our pending requests was for, by request id (ours count up from 1). */
  pending: Array<Purpose | undefined>;
  sessionId?: string;
  canLoad: boolean;
  /** The session option that makes this agent read-only, when the run is (the adapter's readOnly option). */
  readOnly?: SessionOption;
}

/** A session config option, e.g. { configId: "mode", value: "plan" }: how an ACP agent is made read-only. */
export interface SessionOption {
  configId: string;
  value: string;
}

const FS_AND_TERMINAL_OFF = { fs: { readTextFile: false, writeTextFile: false }, terminal: false };

type Purpose = "initialize" | "session" | "model" | "mode" | "prompt";

function request(state: AcpState, purpose: Purpose, method: string, params: unknown) {
  const id = state.nextId++;
  state.pending[id] = purpose;
  return { jsonrpc: "2.0", id, method, params };
}

export const acp = defineDriver<AcpState>({
  name: "acp",
  keepStdinOpen: true,
  idleTimeoutMs: 10 * 60_000,
  start(ctx) {
    const option = asRecord(ctx.options?.readOnly);
    const readOnly =
      ctx.mode === "read-only" && str(option?.configId) && str(option?.value)
        ? { configId: str(option!.configId)!, value: str(option!.value)! }
        : undefined;
    const state: AcpState = { ctx, nextId: 1, pending: [], canLoad: false, part: 0, tools: new Map(), readOnly };
    return {
      state,
      send: [
        request(state, "initialize", "initialize", {
          protocolVersion: 1,
          clientCapabilities: FS_AND_TERMINAL_OFF,
          clientInfo: { name: "od", version: VERSION },
        }),
      ],
    };
  },
  abort: (state) => (state.sessionId ? [{ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: state.sessionId } }] : []),
  receive(record, state, line) {
    const r = asRecord(record);
    if (!r) return { events: [{ type: "raw", stream: "stdout", line }] };
    if (typeof r.method === "string" && r.id !== undefined) return agentRequest(r, state);
    if (typeof r.method === "string")
      return r.method === "session/update"
        ? { events: sessionUpdate(asRecord(r.params)?.update, state, line) }
        : { events: [{ type: "raw", stream: "stdout", line }] };
    if (r.id !== undefined) return response(r, state);
    return { events: [{ type: "raw", stream: "stdout", line }] };
  },
});

function response(r: Rec, state: AcpState): DriverStep {
  const id = num(r.id);
  const purpose = id === undefined ? undefined : state.pending[id];
  if (purpose === undefined || id === undefined) return { events: [] }; // a stray answer: cleanup noise
  state.pending[id] = undefined;
  const error = asRecord(r.error);
  if (error) {
    const message = `${str(error.message) ?? "error"}${asRecord(error.data) || str(error.data) ? ` (${JSON.stringify(error.data)})` : ""}`;
    if (purpose === "mode")
      return fail({
        code: "INVALID_REQUEST",
        message: `${state.ctx.agent.name} refused its read-only mode: ${message}`,
        hint: "od does not run it without one; use --mode edit.",
      });
    if (purpose === "model")
      return fail({
        code: "MODEL_NOT_AVAILABLE",
        message: `${state.ctx.agent.name} refused model ${state.ctx.model}: ${message}`,
        hint: "`od models --agent <id>` lists the valid ones.",
      });
    if (purpose === "session" && state.ctx.resume)
      return fail({
        code: "INVALID_REQUEST",
        message: `${state.ctx.agent.name} could not load session ${state.ctx.resume}: ${message}`,
        hint: "Start a new run without --resume.",
      });
    return { events: [errorFromText(`${purpose === "prompt" ? "" : `ACP ${purpose}: `}${message}`, state.ctx.agent)], done: true };
  }
  const result = asRecord(r.result) ?? {};
  switch (purpose) {
    case "initialize": {
      const capabilities = asRecord(result.agentCapabilities);
      state.canLoad = capabilities?.loadSession === true;
      if (state.ctx.images?.length && asRecord(capabilities?.promptCapabilities)?.image !== true)
        return fail({
          code: "INVALID_REQUEST",
          message: `${state.ctx.agent.name} does not accept images over ACP (promptCapabilities.image)`,
          hint: "Run without --image.",
        });
      if (state.ctx.resume && !state.canLoad)
        return fail({
          code: "INVALID_REQUEST",
          message: `${state.ctx.agent.name} cannot load an earlier session over ACP`,
          hint: "Start a new run without --resume.",
        });
      const params = { cwd: state.ctx.cwd, mcpServers: [] };
      // session/load replays the conversation as updates: the past is not emitted again.
      state.loading = Boolean(state.ctx.resume);
      const send = state.ctx.resume
        ? request(state, "session", "session/load", { ...params, sessionId: state.ctx.resume })
        : request(state, "session", "session/new", params);
      return { events: [], send: [send] };
    }
    case "session": {
      state.loading = false;
      state.sessionId = str(result.sessionId) ?? state.ctx.resume;
      if (!state.sessionId) return { events: [errorFromText("ACP session/new returned no sessionId", state.ctx.agent)], done: true };
      const events: OdEventBody[] = [{ type: "session", sessionId: state.sessionId }];
      if (state.readOnly && !offers(result, state.readOnly))
        return fail(
          {
            code: "INVALID_REQUEST",
            message: `${state.ctx.agent.name} did not offer its read-only mode (${state.readOnly.configId}=${state.readOnly.value}) in this session`,
            hint: "Use --mode edit, or update the agent.",
          },
          events,
        );
      const choice: ModelChoice = acpModelStep(result, state.ctx.model);
      if (choice.kind === "invalid")
        return fail(
          {
            code: "MODEL_NOT_AVAILABLE",
            message: `${state.ctx.agent.name} has no model "${state.ctx.model}"`,
            hint: `Valid models: ${choice.valid.join(", ")}.`,
          },
          events,
        );
      if (choice.kind === "set")
        return { events, send: [request(state, "model", choice.method, { sessionId: state.sessionId, ...choice.params })] };
      if (choice.note) events.push({ type: "status", label: "model", detail: choice.note });
      return { events, send: [afterModel(state)] };
    }
    case "model":
      return { events: [], send: [afterModel(state)] };
    case "mode":
      return {
        events: [{ type: "status", label: "read-only", detail: `${state.readOnly!.configId}=${state.readOnly!.value}` }],
        send: [prompt(state)],
      };
    case "prompt": {
      const events: OdEventBody[] = [];
      // ACP's usage, or the token counts some agents put in _meta (gemini: quota.token_count).
      const u = asRecord(result.usage) ?? asRecord(asRecord(asRecord(result._meta)?.quota)?.token_count);
      if (u)
        events.push({
          type: "usage",
          inputTokens: num(u.inputTokens ?? u.input_tokens),
          outputTokens: num(u.outputTokens ?? u.output_tokens),
          cacheRead: num(u.cachedReadTokens ?? u.cache_read_input_tokens),
          cacheWrite: num(u.cachedWriteTokens ?? u.cache_creation_input_tokens),
          reasoningTokens: num(u.thoughtTokens),
          source: "turn",
        });
      const stop = str(result.stopReason);
      if (stop === "refusal") events.push(errorFromText(`${state.ctx.agent.name} refused the prompt`, state.ctx.agent));
      else if (stop && stop !== "end_turn" && stop !== "cancelled") events.push({ type: "status", label: `stopped: ${stop}` });
      return { events, done: true };
    }
  }
}

/** Read-only runs set the agent's read-only session option before the prompt (fail closed if refused). */
function afterModel(state: AcpState) {
  if (!state.readOnly) return prompt(state);
  return request(state, "mode", "session/set_config_option", {
    sessionId: state.sessionId,
    configId: state.readOnly.configId,
    value: state.readOnly.value,
  });
}

function offers(session: Rec, option: SessionOption): boolean {
  const config = arr(session.configOptions)
    .map(asRecord)
    .find((o) => o?.id === option.configId);
  return JSON.stringify(config?.options ?? []).includes(JSON.stringify(option.value));
}

function prompt(state: AcpState) {
  const blocks: unknown[] = [{ type: "text", text: state.ctx.prompt }];
  for (const image of state.ctx.images ?? []) blocks.push({ type: "image", data: image.data, mimeType: image.mimeType });
  return request(state, "prompt", "session/prompt", { sessionId: state.sessionId, prompt: blocks });
}

function fail(
  error: { code: Extract<OdEventBody, { type: "error" }>["code"]; message: string; hint?: string },
  before: OdEventBody[] = [],
): DriverStep {
  return { events: [...before, { type: "error", ...error, retryable: false }], done: true };
}

const KINDS: Record<string, ActionKind> = {
  read: "read",
  search: "read",
  fetch: "read",
  think: "read",
  edit: "edit",
  delete: "edit",
  move: "edit",
  execute: "execute",
};

/** Requests from the agent: permission goes to the broker; anything we did not advertise is refused. */
function agentRequest(r: Rec, state: AcpState): DriverStep {
  const id = r.id as string | number;
  if (r.method !== "session/request_permission") {
    return { events: [], send: [{ jsonrpc: "2.0", id, error: { code: -32601, message: `od does not provide ${str(r.method)}` } }] };
  }
  const params = asRecord(r.params) ?? {};
  const call = asRecord(params.toolCall) ?? {};
  const options = arr(params.options)
    .map(asRecord)
    .filter((o): o is Rec => !!o);
  const pick = (kinds: string[]) => kinds.map((k) => options.find((o) => o.kind === k)).find(Boolean);
  const ask: PermissionAsk = {
    id: String(id),
    tool: str(call.title) ?? str(call.kind) ?? "tool",
    kind: KINDS[str(call.kind) ?? ""] ?? "other",
    paths: arr(call.locations).flatMap((l) => str(asRecord(l)?.path) ?? []),
    detail: call.rawInput === undefined ? undefined : JSON.stringify(call.rawInput).slice(0, 500),
    options: options.map((o) => str(o.name) ?? str(o.optionId) ?? "?"),
    reply: (decision: Decision) => {
      const chosen = decision === "allow" ? pick(["allow_once", "allow_always"]) : pick(["reject_once", "reject_always"]);
      const outcome = chosen ? { outcome: "selected", optionId: str(chosen.optionId) } : { outcome: "cancelled" };
      return [{ jsonrpc: "2.0", id, result: { outcome } }];
    },
  };
  // The request describes the call too (often with its full input): merged into the call's state,
  // which the agent's own tool_call updates then show under the name it gives.
  toolEvents(call, state, false);
  return { events: [], asks: [ask] };
}
