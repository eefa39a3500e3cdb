import { permissionAsk } from "./acp-permissions.ts";
import { afterInitialize, afterMode, afterModel, afterSession, initialize, promptDone, refused } from "./acp-session.ts";
import type { AcpState, SessionOption } from "./acp-state.ts";
import { unfinishedTools } from "./acp-tools.ts";
import { sessionUpdate } from "./acp-updates.ts";
import type { DriverContext, DriverStep } from "./driver.ts";
import { defineDriver } from "./driver.ts";
import { classify, errorResponse, type Incoming, METHOD_NOT_FOUND, newCalls, notification, settle } from "./jsonrpc.ts";
import { asRecord, str } from "./parse-helpers.ts";

/**
 * The client side of the Agent Client Protocol (JSON-RPC 2.0, one frame per
 * line): initialize → session/new (or session/load to resume) → model
 * selection → session/prompt; session/update notifications become events, the
 * agent's permission requests go to the broker, the prompt's response ends the turn.
 * The framing is jsonrpc.ts's; the handshake's steps are acp-session.ts's.
 */

export type { AcpState, Purpose, SessionOption } from "./acp-state.ts";

type Response = Extract<Incoming, { kind: "response" }>;

export const acp = defineDriver<AcpState>({
  name: "acp",
  keepStdinOpen: true,
  idleTimeoutMs: 10 * 60_000,
  start(ctx) {
    const rules = asRecord(ctx.options?.tools) as AcpState["rules"];
    const state: AcpState = { ctx, calls: newCalls(), canLoad: false, part: 0, tools: new Map(), rules, modeOption: modeOption(ctx) };
    return { state, send: [initialize(state)] };
  },
  finish: (state) => unfinishedTools(state, "the agent exited"),
  abort: (state) => (state.sessionId ? [notification("session/cancel", { sessionId: state.sessionId })] : []),
  receive(record, state, line) {
    // The hot path, a notification, is read off the record itself (no message object per line).
    const r = asRecord(record);
    if (r && typeof r.method === "string" && r.id === undefined) {
      if (r.method === "session/update") return { events: sessionUpdate(asRecord(r.params)?.update, state, line) };
      return { events: [{ type: "raw", stream: "stdout", line }] };
    }
    const message = classify(record);
    switch (message.kind) {
      case "response":
        return answer(message, state);
      case "request":
        // Permission goes to the broker; anything we did not advertise is refused.
        return message.method === "session/request_permission"
          ? permissionAsk(message.id, message.params, state)
          : { events: [], send: [errorResponse(message.id, METHOD_NOT_FOUND, `od does not provide ${message.method}`)] };
      case "notification":
      case "garbage":
        return { events: [{ type: "raw", stream: "stdout", line }] };
    }
  },
});

/**
 * The session option for the run's mode, from the adapter's `modes` option
 * (e.g. { modes: { "read-only": { configId: "mode", value: "plan" }, edit: { configId: "mode", value: "default" } } }).
 */
function modeOption(ctx: DriverContext): SessionOption | undefined {
  const option = asRecord(asRecord(ctx.options?.modes)?.[ctx.sessionMode ?? ctx.mode]);
  const configId = str(option?.configId);
  const value = str(option?.value);
  return configId && value ? { configId, value } : undefined;
}

/** The answer to one of our requests: the next handshake step, or the end of the turn. */
function answer(message: Response, state: AcpState): DriverStep {
  const purpose = settle(state.calls, message.id);
  if (purpose === undefined) return { events: [] }; // a stray answer: cleanup noise
  if (message.error) return refused(purpose, message.error.text, state);
  const result = asRecord(message.result) ?? {};
  switch (purpose) {
    case "initialize":
      return afterInitialize(result, state);
    case "session":
      return afterSession(result, state);
    case "model":
      return { events: [], send: [afterModel(state)] };
    case "mode":
      return afterMode(state);
    case "prompt":
      return promptDone(result, state);
  }
}
