import type { OdEventBody } from "../contract/events.ts";
import { type ToolState, toolEvents } from "./acp-tools.ts";
import { asRecord, num, type Rec, str } from "./parse-helpers.ts";
import { todoPlan } from "./plan-entries.ts";

/** Per-run bookkeeping for session/update: text part numbering and tool calls accumulated by id. */
export interface UpdateState extends ToolState {
  /** Bumped whenever something else comes between two message chunks, so each text run has its own id. */
  part: number;
  lastKind?: string;
  /** The id of the text run now streaming (`p<part>`), made once per run, not per chunk. */
  partId?: string;
  /** While a session/load replays history, updates are the past: they are not re-emitted. */
  loading?: boolean;
}

const DROPPED = new Set(["available_commands_update", "session_info_update", "usage_update", "config_option_update", "user_message_chunk"]);

export function sessionUpdate(update: unknown, state: UpdateState, line: string): OdEventBody[] {
  const u = asRecord(update);
  const kind = str(u?.sessionUpdate);
  if (!u || !kind) return [{ type: "raw", stream: "stdout", line }];
  if (state.loading) return [];
  // Most updates are text chunks: they are told apart first, and only the others looked up. Usage
  // rides on text chunks and the updates od drops; a tool update's or a plan's is not read.
  const message = kind === "agent_message_chunk";
  if (message || kind === "agent_thought_chunk") {
    const usage = usageOf(u);
    if (kind !== state.lastKind) state.partId = `p${++state.part}`;
    state.lastKind = kind;
    const text = str(asRecord(u.content)?.text);
    const events: OdEventBody[] = text
      ? [{ type: message ? "text.delta" : "thinking.delta", id: state.partId ?? `p${state.part}`, text }]
      : [];
    if (usage) events.push(usage);
    return events;
  }
  if (DROPPED.has(kind)) {
    const usage = usageOf(u);
    return usage ? [usage] : [];
  }
  state.lastKind = kind;
  switch (kind) {
    case "tool_call":
    case "tool_call_update":
      return toolEvents(u, state);
    case "plan":
      // The whole plan each time (ACP: the client replaces it), as od's own event.
      return [{ type: "plan", entries: todoPlan(u.entries) }];
    case "current_mode_update":
      return [{ type: "status", label: "mode", detail: str(u.currentModeId) }];
    default:
      return [{ type: "raw", stream: "stdout", line }];
  }
}

/** Token counts some agents attach to updates (`_meta.usage`, e.g. Qwen Code): a usage event per model turn. */
function usageOf(update: Rec): OdEventBody | undefined {
  const u = asRecord(asRecord(update._meta)?.usage);
  if (!u || (num(u.inputTokens) === undefined && num(u.outputTokens) === undefined)) return undefined;
  return {
    type: "usage",
    inputTokens: num(u.inputTokens),
    outputTokens: num(u.outputTokens),
    cacheRead: num(u.cachedReadTokens),
    reasoningTokens: num(u.thoughtTokens),
    source: "turn",
  };
}
