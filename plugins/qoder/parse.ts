import { arr, asRecord, errorFromText, num, type OdEventBody, str, textOf } from "../../src/plugin.ts";

/**
 * `qodercli -p --output-format stream-json`: Claude Code's stream-json records (the bundle's own
 * schemas: system/init, assistant, user, stream_event, result, system/status|permission_denied).
 * Without a partial-messages flag each assistant message arrives whole. A failed turn is an
 * assistant message with `error` (e.g. "authentication_failed") and a `result` with
 * `is_error: true` although its `subtype` says "success".
 */

export const AGENT = { name: "Qoder CLI", login: "run `qodercli login`, or set QODER_PERSONAL_ACCESS_TOKEN" };

export interface QoderState {
  calls: Set<string>;
  /** An error was already reported: the closing `result` repeats it. */
  failed: boolean;
  n: number;
}

export const createState = (): QoderState => ({ calls: new Set(), failed: false, n: 0 });

export function parse(record: unknown, state: QoderState, line: string): OdEventBody[] {
  const r = asRecord(record);
  switch (r?.type) {
    case "system":
      return system(r, line);
    case "assistant":
      return assistant(r, state);
    case "user":
      return arr(asRecord(r.message)?.content).flatMap((b) => {
        const block = asRecord(b);
        if (block?.type !== "tool_result") return [];
        return [{ type: "tool.result" as const, id: str(block.tool_use_id) ?? "", output: textOf(block.content), isError: block.is_error === true }];
      });
    case "stream_event":
      return []; // partial deltas of a message that also arrives whole
    case "result":
      return result(r, state);
    default:
      return [{ type: "raw", stream: "stdout", line }];
  }
}

function system(r: Record<string, unknown>, line: string): OdEventBody[] {
  switch (r.subtype) {
    case "init":
      return str(r.session_id) ? [{ type: "session", sessionId: str(r.session_id)!, model: str(r.model) }] : [];
    case "status":
      return str(r.status) ? [{ type: "status", label: str(r.status)! }] : [];
    case "permission_denied": {
      const id = str(r.tool_use_id) ?? `perm-${str(r.uuid) ?? ""}`;
      const reason = str(r.message);
      return [
        { type: "permission.request", id, tool: str(r.tool_name) ?? "tool", detail: reason },
        { type: "permission.decision", id, decision: "deny", by: "policy", reason },
      ];
    }
    default:
      return [{ type: "raw", stream: "stdout", line }];
  }
}

function assistant(r: Record<string, unknown>, state: QoderState): OdEventBody[] {
  const message = asRecord(r.message);
  const blocks = arr(message?.content);
  // A synthetic message: its text is the error ("Not logged in · Please run /login"), `error` its kind.
  if (str(r.error)) return fail(state, `${textOf(blocks) || "Qoder CLI reported an error"} (${str(r.error)})`);
  const messageId = str(message?.id) ?? `msg-${++state.n}`;
  return blocks.flatMap((b, i): OdEventBody[] => {
    const block = asRecord(b);
    const id = `${messageId}:${i}`;
    if (block?.type === "text" && str(block.text)) return [{ type: "text.delta", id, text: str(block.text)! }];
    if (block?.type === "thinking" && str(block.thinking)) return [{ type: "thinking.delta", id, text: str(block.thinking)! }];
    if (block?.type === "tool_use" && str(block.id) && !state.calls.has(str(block.id)!)) {
      state.calls.add(str(block.id)!);
      return [{ type: "tool.call", id: str(block.id)!, name: str(block.name) ?? "tool", input: block.input ?? {} }];
    }
    return [];
  });
}

function result(r: Record<string, unknown>, state: QoderState): OdEventBody[] {
  const u = asRecord(r.usage);
  const events: OdEventBody[] = [
    {
      type: "usage",
      inputTokens: num(u?.input_tokens),
      outputTokens: num(u?.output_tokens),
      cacheRead: num(u?.cache_read_input_tokens),
      cacheWrite: num(u?.cache_creation_input_tokens),
      costUsd: num(r.total_cost_usd),
      source: "run",
    },
  ];
  if (r.is_error === true) {
    const errors = arr(r.errors).filter((e): e is string => typeof e === "string");
    events.push(...fail(state, errors.join("; ") || str(r.result) || `Qoder run failed: ${str(r.subtype) ?? "error"}`));
  }
  return events;
}

function fail(state: QoderState, text: string): OdEventBody[] {
  if (state.failed) return [];
  state.failed = true;
  return [errorFromText(text, AGENT)];
}
