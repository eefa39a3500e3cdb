import { arr, asRecord, errorFromText, num, type OdEventBody, str, textOf, todosAt, toolCallEvents, toolTable } from "../../src/plugin.ts";

/**
 * `cursor-agent --print --output-format stream-json --stream-partial-output` records: system/init
 * (`session_id` is the chat id to resume), user (the prompt, echoed), thinking delta|completed,
 * assistant, tool_call started|completed, result.
 *
 * Replay reconciliation: an assistant record with `timestamp_ms` and no `model_call_id` is a delta,
 * kept verbatim (a repeated delta is real text). One with a `model_call_id`, or with no
 * `timestamp_ms`, replays the whole message so far: only the part not yet emitted is new, and
 * nothing is when it does not continue what was emitted. It also ends the message: text after
 * it (e.g. after a tool call) is a new part.
 */

export const AGENT = { name: "Cursor Agent", login: "run `cursor-agent login`, or set CURSOR_API_KEY" };

/** Cursor Agent's tools, by the key of the call (`<name>ToolCall`) without its suffix: kind, the args naming files, the todo list. */
export const cursorTools = toolTable({
  read: { kind: "read", paths: ["path"] },
  write: { kind: "edit", paths: ["path"] },
  edit: { kind: "edit", paths: ["path"] },
  delete: { kind: "edit", paths: ["path"] },
  shell: { kind: "execute" },
  grep: { kind: "search", paths: ["path"] },
  glob: { kind: "search", paths: ["targetDirectory", "path"] },
  ls: { kind: "search", paths: ["path"] },
  semSearch: { kind: "search" },
  webSearch: { kind: "fetch" },
  webFetch: { kind: "fetch" },
  updateTodos: { kind: "think", plan: todosAt() },
  readTodos: { kind: "think" },
});

export interface CursorState {
  sessionId?: string;
  /** Text emitted in the current message, and the message's index (its text part id). */
  text: string;
  turn: number;
  /** Thinking phases end with `thinking/completed`; each is its own part. */
  thinking: number;
  calls: Set<string>;
}

export const createState = (): CursorState => ({ text: "", turn: 0, thinking: 0, calls: new Set() });

export function parse(record: unknown, state: CursorState, line: string): OdEventBody[] {
  const r = asRecord(record);
  switch (r?.type) {
    case "system":
      return r.subtype === "init" ? session(state, str(r.session_id), str(r.model)) : [{ type: "raw", stream: "stdout", line }];
    case "user":
      return []; // the prompt, echoed
    case "thinking":
      if (r.subtype === "completed") {
        state.thinking++;
        return [];
      }
      return str(r.text) ? [{ type: "thinking.delta", id: `thinking-${state.thinking}`, text: str(r.text)! }] : [];
    case "assistant":
      return assistant(r, state);
    case "tool_call":
      return toolCall(r, state);
    case "result":
      return result(r, state);
    default:
      return [{ type: "raw", stream: "stdout", line }];
  }
}

function session(state: CursorState, id: string | undefined, model?: string): OdEventBody[] {
  if (!id || state.sessionId === id) return [];
  state.sessionId = id;
  return [{ type: "session", sessionId: id, model }];
}

function assistant(r: Record<string, unknown>, state: CursorState): OdEventBody[] {
  const text = arr(asRecord(r.message)?.content)
    .map((b) => (asRecord(b)?.type === "text" ? (str(asRecord(b)?.text) ?? "") : ""))
    .join("");
  const id = `text-${state.turn}`;
  if (num(r.timestamp_ms) !== undefined && r.model_call_id === undefined) {
    state.text += text;
    return text ? [{ type: "text.delta", id, text }] : [];
  }
  const missing = text.startsWith(state.text) ? text.slice(state.text.length) : "";
  state.text = "";
  state.turn++;
  return missing ? [{ type: "text.delta", id, text: missing }] : [];
}

/** `tool_call: {<kind>ToolCall: {args, result?}}`; the result is `{success: …}` or an error/rejection. */
function toolCall(r: Record<string, unknown>, state: CursorState): OdEventBody[] {
  const id = str(r.call_id);
  const call = asRecord(r.tool_call);
  const kind = call ? Object.keys(call)[0] : undefined;
  const body = kind ? asRecord(call?.[kind]) : undefined;
  if (!id) return [];
  const events: OdEventBody[] = [];
  if (!state.calls.has(id)) {
    state.calls.add(id);
    const name = kind?.replace(/ToolCall$/, "") ?? "tool";
    const input = body?.args ?? {};
    for (const e of toolCallEvents(id, name, input, cursorTools(name, input))) events.push(e);
  }
  if (r.subtype === "completed") events.push(toolResult(id, asRecord(body?.result)));
  return events;
}

function toolResult(id: string, result: Record<string, unknown> | undefined): OdEventBody {
  const success = asRecord(result?.success);
  if (!success) {
    const failure = result ? Object.values(result)[0] : undefined;
    return { type: "tool.result", id, output: str(asRecord(failure)?.message) ?? textOf(failure ?? "tool failed"), isError: true };
  }
  const exit = num(success.exitCode);
  if (exit !== undefined) {
    const output = [str(success.stdout), str(success.stderr)].filter(Boolean).join("\n");
    return { type: "tool.result", id, output, isError: exit !== 0 };
  }
  return { type: "tool.result", id, output: textOf(success), isError: false };
}

function result(r: Record<string, unknown>, state: CursorState): OdEventBody[] {
  const u = asRecord(r.usage);
  const events: OdEventBody[] = session(state, str(r.session_id));
  if (u) {
    const usage = {
      inputTokens: num(u.inputTokens),
      outputTokens: num(u.outputTokens),
      cacheRead: num(u.cacheReadTokens),
      cacheWrite: num(u.cacheWriteTokens),
    };
    events.push({ type: "usage", ...usage, source: "run" });
  }
  if (r.is_error === true) events.push(errorFromText(str(r.result) ?? "Cursor Agent reported an error", AGENT));
  return events;
}
