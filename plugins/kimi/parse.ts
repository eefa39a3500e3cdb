import { arr, asRecord, errorFromText, num, type OdEventBody, str, textOf, todosAt, toolCallEvents, toolTable } from "../../src/plugin.ts";

/**
 * Kimi Code's `kimi -p … --output-format stream-json`: one OpenAI-style message per line, written
 * when a step ends (so an answer arrives whole, not as deltas), plus `role: "meta"` records.
 * Checked against 2.1.0: thinking and token usage are not written to this stream, and a tool
 * result carries no error flag: a failed file tool reads "<step> failed: <reason>" ("mkdir failed:
 * path does not exist", "write failed: permission denied"), which od takes for the error it is.
 * Run failures go to stderr as `error: failed to run prompt: …` with exit 1 (see `classify`).
 */

export const AGENT = { name: "Kimi Code", login: "run `kimi login` (or `kimi` and type /login)" };

/** How Kimi's file tools say they failed (2.1.0). */
const FAILED = /^[a-z]+(?: [a-z]+)? failed: /;

/** Kimi's tools, as 2.x names them (Write, with `path`) and as its earlier CLI did (WriteFile): kind, the arguments naming files, the todo list. */
export const kimiTools = toolTable({
  Read: { kind: "read", paths: ["path", "file_path"] },
  ReadFile: { kind: "read", paths: ["path"] },
  Write: { kind: "edit", paths: ["path", "file_path"] },
  WriteFile: { kind: "edit", paths: ["path"] },
  Edit: { kind: "edit", paths: ["path", "file_path"] },
  StrReplaceFile: { kind: "edit", paths: ["path"] },
  PatchFile: { kind: "edit", paths: ["path"] },
  Shell: { kind: "execute" },
  Bash: { kind: "execute" },
  Grep: { kind: "search", paths: ["path"] },
  Glob: { kind: "search", paths: ["directory", "path"] },
  SearchWeb: { kind: "fetch" },
  WebSearch: { kind: "fetch" },
  FetchURL: { kind: "fetch" },
  WebFetch: { kind: "fetch" },
  Task: { kind: "think" },
  Think: { kind: "think" },
  SetTodoList: { kind: "think", plan: todosAt() },
  TodoWrite: { kind: "think", plan: todosAt() },
});

export interface KimiState {
  /** Assistant messages so far: each gets its own text part id. */
  messages: number;
}

export const createState = (): KimiState => ({ messages: 0 });

export function parse(record: unknown, state: KimiState, line: string): OdEventBody[] {
  const r = asRecord(record);
  switch (r?.role) {
    case "assistant":
      return assistant(r, state);
    case "tool": {
      const output = textOf(r.content);
      return [{ type: "tool.result", id: str(r.tool_call_id) ?? "", output, isError: FAILED.test(output) }];
    }
    case "meta":
      return meta(r, line);
    default:
      return r?.type === "goal.summary"
        ? [{ type: "status", label: "goal", detail: str(r.status) ?? "none" }]
        : [{ type: "raw", stream: "stdout", line }];
  }
}

function assistant(r: Record<string, unknown>, state: KimiState): OdEventBody[] {
  const id = `kimi-msg-${++state.messages}`;
  const events: OdEventBody[] = [];
  const text = textOf(r.content);
  if (text) events.push({ type: "text.delta", id, text });
  for (const c of arr(r.tool_calls)) {
    const call = asRecord(c);
    const fn = asRecord(call?.function);
    const name = str(fn?.name) ?? "tool";
    const input = parseArguments(fn?.arguments);
    for (const e of toolCallEvents(str(call?.id) ?? "", name, input, kimiTools(name, input))) events.push(e);
  }
  return events;
}

function meta(r: Record<string, unknown>, line: string): OdEventBody[] {
  switch (r.type) {
    case "session.resume_hint":
      return str(r.session_id) ? [{ type: "session", sessionId: str(r.session_id)! }] : [];
    case "system.version":
      return [{ type: "status", label: "version", detail: str(r.version) }];
    case "turn.step.retrying": {
      const status = num(r.status_code);
      const message = str(r.error_message) ?? str(r.error_name) ?? "request failed";
      // Kimi retries whatever failed; a rejected key never heals, so stop there.
      if (status === 401 || status === 403) return [errorFromText(message, AGENT)];
      return [
        { type: "status", label: "retrying", detail: `attempt ${num(r.next_attempt) ?? "?"}/${num(r.max_attempts) ?? "?"}: ${message}` },
      ];
    }
    default:
      return [{ type: "raw", stream: "stdout", line }];
  }
}

/** Tool arguments arrive as a JSON string; keep the text when it does not parse. */
function parseArguments(value: unknown): unknown {
  if (typeof value !== "string") return value ?? {};
  try {
    return JSON.parse(value);
  } catch {
    return { _raw: value };
  }
}
