import type { OdEventBody } from "../contract/events.ts";
import type { PermissionAsk } from "../contract/permissions.ts";
import { errorFromText } from "./classify-text.ts";
import { defineDriver } from "./driver.ts";
import { asRecord, num, type Rec, str, textOf } from "./parse-helpers.ts";
import { piTools } from "./pi-tools.ts";
import { toolCallEvents } from "./tool-facts.ts";

/** pi's RPC mode (`pi --mode rpc`): JSON commands on stdin, events and responses on stdout. */

const DIALOGS = new Set(["select", "confirm", "input", "editor"]);
const STATE_ID = "od-state";
const PROMPT_ID = "od-prompt";
/** Asked after an `agent_end` that ended in an error: pi answers it only after it has said whether it retries. */
const SETTLE_ID = "od-settle";

export interface PiState {
  agent: { name: string; login?: string };
  /** Index of the current assistant message, for text/thinking part ids. */
  message: number;
  /** The last turn's error, held until pi says it will not retry it (pi's own retries come first). */
  failure?: string;
}

export const piRpc = defineDriver<PiState>({
  name: "pi-rpc",
  keepStdinOpen: true,
  start: (ctx) => ({
    state: { agent: ctx.agent, message: 0 },
    send: [
      { id: STATE_ID, type: "get_state" },
      {
        id: PROMPT_ID,
        type: "prompt",
        message: ctx.prompt,
        ...(ctx.images?.length ? { images: ctx.images.map((i) => ({ type: "image", data: i.data, mimeType: i.mimeType })) } : {}),
      },
    ],
  }),
  abort: () => [{ type: "abort" }],
  // A turn's error held for pi's retry verdict is the run's error if pi's output ends first.
  finish: (state) => (state.failure ? giveUp(state).events : []),
  receive(record, state, line) {
    const r = asRecord(record);
    switch (r?.type) {
      case "response":
        return response(r, state);
      case "agent_start":
        return { events: [{ type: "status", label: "working" }] };
      case "message_start":
        if (asRecord(r.message)?.role === "assistant") state.message++;
        return { events: [] };
      case "message_update":
        return { events: delta(r, state) };
      case "tool_execution_start": {
        const name = str(r.toolName) ?? "tool";
        const input = r.args ?? {};
        return { events: toolCallEvents(str(r.toolCallId) ?? "", name, input, piTools(name, input)) };
      }
      case "tool_execution_end":
        return {
          events: [
            {
              type: "tool.result",
              id: str(r.toolCallId) ?? "",
              output: textOf(asRecord(r.result)?.content ?? r.result),
              isError: r.isError === true,
            },
          ],
        };
      case "turn_end":
        return { events: turnEnd(asRecord(r.message), state) };
      case "auto_retry_start":
        state.failure = undefined; // pi retries it: not the run's end
        return { events: [{ type: "status", label: "retrying", detail: retryDetail(r) }] };
      case "auto_retry_end":
        return r.success === false ? giveUp(state, str(r.finalError)) : { events: [] };
      case "compaction_start":
        return { events: [{ type: "status", label: "compacting", detail: str(r.reason) }] };
      case "extension_error":
        // pi keeps going after an extension throws: report it, do not fail the run.
        return {
          events: [{ type: "status", label: "extension error", detail: `${str(r.extensionPath) ?? "extension"}: ${str(r.error) ?? ""}` }],
        };
      case "extension_ui_request":
        return dialog(r);
      case "agent_end":
        // After an error pi may retry (auto_retry_start follows at once): ask, and end only on its answer.
        return state.failure ? { events: [], send: [{ id: SETTLE_ID, type: "get_state" }] } : { events: [], done: true };
      case "turn_start":
      case "message_end":
      case "tool_execution_update":
      case "queue_update":
      case "compaction_end":
        return { events: [] };
      default:
        return { events: [{ type: "raw", stream: "stdout", line }] };
    }
  },
});

function response(r: Rec, state: PiState) {
  if (r.id === STATE_ID && r.success === true) {
    const data = asRecord(r.data);
    const sessionId = str(data?.sessionId);
    const model = str(asRecord(data?.model)?.id);
    return { events: sessionId ? [{ type: "session" as const, sessionId, model }] : [] };
  }
  if (r.id === SETTLE_ID) return state.failure ? giveUp(state) : { events: [] };
  if (r.id === PROMPT_ID && r.success === false) {
    // The prompt was refused before the agent started: nothing more will come.
    return { events: [errorFromText(str(r.error) ?? "pi refused the prompt", state.agent)], done: true };
  }
  if (r.success === false)
    return { events: [{ type: "status" as const, label: `${str(r.command) ?? "command"} failed`, detail: str(r.error) }] };
  return { events: [] };
}

function delta(r: Rec, state: PiState): OdEventBody[] {
  const e = asRecord(r.assistantMessageEvent);
  const id = `m${state.message}:${num(e?.contentIndex) ?? 0}`;
  const text = str(e?.delta);
  if (!text) return [];
  if (e?.type === "text_delta") return [{ type: "text.delta", id, text }];
  if (e?.type === "thinking_delta") return [{ type: "thinking.delta", id, text }];
  return [];
}

function turnEnd(message: Rec | undefined, state: PiState): OdEventBody[] {
  const usage = asRecord(message?.usage);
  const events: OdEventBody[] = [];
  if (usage) {
    events.push({
      type: "usage",
      inputTokens: num(usage.input),
      outputTokens: num(usage.output),
      cacheRead: num(usage.cacheRead),
      cacheWrite: num(usage.cacheWrite),
      costUsd: num(asRecord(usage.cost)?.total),
      source: "turn",
    });
  }
  if (message?.stopReason === "error") state.failure = str(message.errorMessage) ?? "the model call failed";
  return events;
}

/** `1/3 in 2s: 503 Service Unavailable` */
function retryDetail(r: Rec): string {
  const delay = num(r.delayMs);
  const when = delay === undefined ? "" : ` in ${Math.round(delay / 100) / 10}s`;
  return `${num(r.attempt) ?? "?"}/${num(r.maxAttempts) ?? "?"}${when}: ${str(r.errorMessage) ?? ""}`.trim();
}

/** pi will not retry (or gave up retrying): the turn's error ends the run. */
function giveUp(state: PiState, finalError?: string) {
  const text = finalError ?? state.failure ?? "pi gave up after retrying";
  state.failure = undefined;
  return { events: [errorFromText(text, state.agent)], done: true };
}

/**
 * Extension dialogs: a confirm or select is a permission ask (pi does not say
 * what it guards, so policy allows it only in full mode); an input or editor
 * needs typed text that a headless run cannot give, so it is cancelled.
 */
function dialog(r: Rec) {
  const method = str(r.method) ?? "";
  const id = str(r.id) ?? "";
  if (!DIALOGS.has(method)) return { events: [] }; // notify, setStatus, ...: fire-and-forget
  const detail = [str(r.title), str(r.message)].filter(Boolean).join(": ") || undefined;
  if (method === "input" || method === "editor") {
    return {
      events: [
        {
          type: "status" as const,
          label: "extension dialog cancelled",
          detail: `${method}: ${detail ?? ""} (nobody can type an answer in a headless run)`,
        },
      ],
      send: [{ type: "extension_ui_response", id, cancelled: true }],
    };
  }
  const options = Array.isArray(r.options) ? r.options.filter((o): o is string => typeof o === "string") : undefined;
  const ask: PermissionAsk = {
    id,
    tool: `pi extension ${method}`,
    kind: "other",
    detail,
    options,
    reply: (decision) =>
      method === "confirm"
        ? [{ type: "extension_ui_response", id, confirmed: decision === "allow" }]
        : decision === "allow" && options?.length
          ? [{ type: "extension_ui_response", id, value: options[0] }]
          : [{ type: "extension_ui_response", id, cancelled: true }],
  };
  return { events: [], asks: [ask] };
}
