import type { OdEventBody } from "../contract/events.ts";
import { VERSION } from "../os/version.ts";
import { sessionMcpServers } from "./acp-mcp.ts";
import { acpModelStep } from "./acp-models.ts";
import type { AcpState, Purpose, SessionOption } from "./acp-state.ts";
import { unfinishedTools } from "./acp-tools.ts";
import { errorFromText } from "./classify-text.ts";
import type { DriverStep } from "./driver.ts";
import { call } from "./jsonrpc.ts";
import { arr, asRecord, num, type Rec, str } from "./parse-helpers.ts";

/**
 * The ACP handshake, step by step: each function reads the answer to the
 * previous request and sends the next (initialize → session/new or
 * session/load → model → read-only mode → session/prompt), or fails closed.
 */

const FS_AND_TERMINAL_OFF = { fs: { readTextFile: false, writeTextFile: false }, terminal: false };

type ErrorCode = Extract<OdEventBody, { type: "error" }>["code"];

export function initialize(state: AcpState) {
  return call(state.calls, "initialize", "initialize", {
    protocolVersion: 1,
    clientCapabilities: FS_AND_TERMINAL_OFF,
    clientInfo: { name: "od", version: VERSION },
  });
}

export function afterInitialize(result: Rec, state: AcpState): DriverStep {
  const { ctx } = state;
  const capabilities = asRecord(result.agentCapabilities);
  state.canLoad = capabilities?.loadSession === true;
  if (ctx.images?.length && asRecord(capabilities?.promptCapabilities)?.image !== true)
    return fail({
      code: "INVALID_REQUEST",
      message: `${ctx.agent.name} does not accept images over ACP (promptCapabilities.image)`,
      hint: "Run without --image.",
    });
  if (ctx.resume && !state.canLoad)
    return fail({
      code: "INVALID_REQUEST",
      message: `${ctx.agent.name} cannot load an earlier session over ACP`,
      hint: "Start a new run without --resume.",
    });
  const { mcpServers, note } = sessionMcpServers(ctx.mcpServers, capabilities, ctx.agent.name);
  // An agent's own session options for this mode (the adapter's sessionMeta), as ACP's `_meta` carries them.
  const meta = asRecord(asRecord(ctx.options?.sessionMeta)?.[ctx.sessionMode ?? ctx.mode]);
  const params = { cwd: ctx.cwd, mcpServers, ...(meta ? { _meta: meta } : {}) };
  // session/load replays the conversation as updates: the past is not emitted again.
  state.loading = Boolean(ctx.resume);
  const send = ctx.resume
    ? call(state.calls, "session", "session/load", { ...params, sessionId: ctx.resume })
    : call(state.calls, "session", "session/new", params);
  return { events: note ? [note] : [], send: [send] };
}

export function afterSession(result: Rec, state: AcpState): DriverStep {
  const { ctx } = state;
  state.loading = false;
  state.sessionId = str(result.sessionId) ?? ctx.resume;
  if (!state.sessionId) return { events: [errorFromText("ACP session/new returned no sessionId", ctx.agent)], done: true };
  // An agent that cannot load sessions cannot take this one back: the run is not resumable.
  const events: OdEventBody[] = [{ type: "session", sessionId: state.sessionId, ...(state.canLoad ? {} : { resumable: false }) }];
  if (state.modeOption && !offers(result, state.modeOption))
    return fail(
      {
        code: "INVALID_REQUEST",
        message: `${ctx.agent.name} did not offer its ${ctx.mode} mode (${describe(state.modeOption)}) in this session`,
        hint: "Update the agent, or choose another --mode.",
      },
      events,
    );
  const choice = acpModelStep(result, ctx.model);
  if (choice.kind === "invalid")
    return fail(
      {
        code: "MODEL_NOT_AVAILABLE",
        message: `${ctx.agent.name} has no model "${ctx.model}"`,
        hint: `Valid models: ${choice.valid.join(", ")}.`,
      },
      events,
    );
  if (choice.kind === "set")
    return { events, send: [call(state.calls, "model", choice.method, { sessionId: state.sessionId, ...choice.params })] };
  if (choice.note) events.push({ type: "status", label: "model", detail: choice.note });
  return { events, send: [afterModel(state)] };
}

/**
 * The agent is put in the session mode that matches od's mode before the prompt (fail closed if
 * refused): never more authority than the run asked for.
 */
export function afterModel(state: AcpState) {
  if (!state.modeOption) return prompt(state);
  return call(state.calls, "mode", "session/set_config_option", {
    sessionId: state.sessionId,
    configId: state.modeOption.configId,
    value: state.modeOption.value,
  });
}

export function afterMode(state: AcpState): DriverStep {
  return {
    events: [{ type: "status", label: "mode", detail: `${state.ctx.mode}: ${describe(state.modeOption!)}` }],
    send: [prompt(state)],
  };
}

const describe = (option: SessionOption) => `${option.configId}=${option.value}`;

/** The prompt's answer ends the turn: its usage, and why it stopped when that was not the usual end. */
export function promptDone(result: Rec, state: AcpState): DriverStep {
  const events: OdEventBody[] = unfinishedTools(state, "the turn ended");
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

/** An error answer ends the run; a refused mode, model or session says what the user can do instead. */
export function refused(purpose: Purpose, message: string, state: AcpState): DriverStep {
  const { agent, model, resume } = state.ctx;
  if (purpose === "mode")
    return fail({
      code: "INVALID_REQUEST",
      message: `${agent.name} refused its ${state.ctx.mode} mode (${describe(state.modeOption!)}): ${message}`,
      hint: "od does not run an agent with more authority than the mode asked for; update the agent, or choose another --mode.",
    });
  if (purpose === "model")
    return fail({
      code: "MODEL_NOT_AVAILABLE",
      message: `${agent.name} refused model ${model}: ${message}`,
      hint: "`od models --agent <id>` lists the valid ones.",
    });
  if (purpose === "session" && resume)
    return fail({
      code: "INVALID_REQUEST",
      message: `${agent.name} could not load session ${resume}: ${message}`,
      hint: "Start a new run without --resume.",
    });
  return { events: [errorFromText(`${purpose === "prompt" ? "" : `ACP ${purpose}: `}${message}`, agent)], done: true };
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
  return call(state.calls, "prompt", "session/prompt", { sessionId: state.sessionId, prompt: blocks });
}

function fail(error: { code: ErrorCode; message: string; hint?: string }, before: OdEventBody[] = []): DriverStep {
  return { events: [...before, { type: "error", ...error, retryable: false }], done: true };
}
