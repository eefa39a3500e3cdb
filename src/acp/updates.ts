import type { SessionUpdate, StopReason } from "@agentclientprotocol/sdk";
import type { EventType, OdEvent, OdEventBody } from "../core/contract/events.ts";
import { rawInputOf } from "./raw-input.ts";
import { locationsOf, titleOf } from "./tool-call.ts";

/** What the mapping remembers within one prompt turn: the run's folder, and the tool calls the client has been shown. */
export interface UpdateState {
  shown: Set<string>;
  /** run.started's cwd: what a tool call's relative paths are relative to. */
  cwd?: string;
}

export const newUpdateState = (): UpdateState => ({ shown: new Set() });

/**
 * The event types that become no `session/update`, and why: `toUpdates` answers none for them.
 * A type of the contract neither mapped nor listed here fails test/surfaces.test.ts.
 */
export const NOT_SENT: Partial<Record<EventType, string>> = {
  "run.started": "the client started the prompt: it knows the agent, folder and mode (the folder is kept for tool paths)",
  session: "the agent's own session id is od's resume handle; the client's session is the ACP session",
  status: "od's progress notes (retrying, queued, mode): ACP has no update for a note the client must show",
  "permission.request": "asked with session/request_permission (src/acp/permissions.ts), not as an update",
  "permission.decision": "the client's answer to session/request_permission, or the policy's: nothing to tell it",
  usage: "ACP's usage_update is the context window's fill (used and size), which od does not know",
  raw: "records od did not understand: kept in od's log, never shown as the agent's words",
  error: "a failed prompt is the session/prompt error response (src/acp/prompt.ts)",
  "run.result": "what the turn did is in its updates; the files it changed are on disk",
  "run.finished": "the turn's end is the session/prompt response and its stop reason",
};

const chunk = (kind: "agent_message_chunk" | "agent_thought_chunk", t: string): SessionUpdate => ({
  sessionUpdate: kind,
  content: { type: "text", text: t },
});

/**
 * One od event as the ACP `session/update`s a client shows: text and thoughts as chunks (a
 * sub-agent's text as thought: it is not the answer), a tool call and its result as `tool_call`
 * and `tool_call_update` with the call's kind, files (absolute), input (an object, bounded) and status, a plan as `plan` (ACP's priority
 * is required: od's, where the agent gave none, is "medium"). The rest: NOT_SENT says why.
 */
export function toUpdates(event: OdEvent | OdEventBody, state: UpdateState): SessionUpdate[] {
  switch (event.type) {
    case "text.delta":
      return event.text ? [chunk(event.parent ? "agent_thought_chunk" : "agent_message_chunk", event.text)] : [];
    case "thinking.delta":
      return event.text ? [chunk("agent_thought_chunk", event.text)] : [];
    case "tool.call": {
      const rawInput = rawInputOf(event.input);
      const fields = { title: titleOf(event), kind: event.kind ?? "other", ...(rawInput ? { rawInput } : {}) };
      const where = locationsOf(event, state.cwd);
      if (state.shown.has(event.id))
        return [{ sessionUpdate: "tool_call_update", toolCallId: event.id, ...fields, ...(where.length ? { locations: where } : {}) }];
      state.shown.add(event.id);
      return [{ sessionUpdate: "tool_call", toolCallId: event.id, ...fields, status: "in_progress", locations: where }];
    }
    case "tool.result": {
      const opened: SessionUpdate[] = state.shown.has(event.id)
        ? []
        : [{ sessionUpdate: "tool_call", toolCallId: event.id, title: "tool", kind: "other", status: "in_progress" }];
      state.shown.add(event.id);
      const content = event.output ? [{ type: "content" as const, content: { type: "text" as const, text: event.output } }] : [];
      return [
        ...opened,
        { sessionUpdate: "tool_call_update", toolCallId: event.id, status: event.isError ? "failed" : "completed", content },
      ];
    }
    case "plan":
      return [{ sessionUpdate: "plan", entries: event.entries.map((e) => ({ ...e, priority: e.priority ?? "medium" })) }];
    case "run.started":
      state.cwd = event.cwd || undefined;
      return [];
    case "session":
    case "status":
    case "permission.request":
    case "permission.decision":
    case "usage":
    case "raw":
    case "error":
    case "run.result":
    case "run.finished":
      return [];
    default:
      return unknownType(event);
  }
}

/** Every type is a case above: a new one fails to compile until it is mapped or listed in NOT_SENT. */
function unknownType(event: never): SessionUpdate[] {
  void event;
  return [];
}

/**
 * How a turn ended, in ACP's words, from the run's events: cancelled, cut off at the output limit
 * (max_tokens) or the turn limit (max_turn_requests), refused by the agent (refusal), or done.
 * Undefined for a run that failed otherwise: that is an error, not a stop reason.
 */
export function stopReasonOf(events: Array<OdEvent | OdEventBody>): StopReason | undefined {
  const finished = events.find((e) => e.type === "run.finished");
  if (finished?.type === "run.finished" && finished.status === "cancelled") return "cancelled";
  for (const e of events) {
    if (e.type === "status" && /max_tokens|cut off at the output limit/.test(`${e.label} ${e.detail ?? ""}`)) return "max_tokens";
    if (e.type === "status" && /max_turn/.test(e.label)) return "max_turn_requests";
    if (e.type === "error" && / refused the prompt$/.test(e.message)) return "refusal";
  }
  return finished?.type === "run.finished" && finished.status === "succeeded" ? "end_turn" : undefined;
}
