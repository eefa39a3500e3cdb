import { arr, asRecord, errorFromText, num, type OdEventBody, str, textOf } from "../../src/plugin.ts";

/**
 * Amp's `--execute --stream-json-thinking` records: the Claude Code stream-json shape without
 * partial messages (each assistant message arrives whole), plus thinking blocks. The record types
 * and fields are those of @sourcegraph/amp-sdk's `StreamMessage` (system/init, assistant, user
 * with tool_result blocks, result); an error result carries a single `error` string.
 */

export const AGENT = { name: "Amp", login: "run `amp login`, or set AMP_API_KEY" };

export interface AmpState {
  /** Synthetic message counter for assistant records without an id. */
  n: number;
}

export const createState = (): AmpState => ({ n: 0 });

export function parse(record: unknown, state: AmpState, line: string): OdEventBody[] {
  const r = asRecord(record);
  switch (r?.type) {
    case "system":
      if (r.subtype !== "init") return [{ type: "raw", stream: "stdout", line }];
      return str(r.session_id) ? [{ type: "session", sessionId: str(r.session_id)! }] : [];
    case "assistant":
      return assistant(asRecord(r.message), state);
    case "user":
      return arr(asRecord(r.message)?.content).flatMap((b) => {
        const block = asRecord(b);
        if (block?.type !== "tool_result") return [];
        return [{ type: "tool.result" as const, id: str(block.tool_use_id) ?? "", output: textOf(block.content), isError: block.is_error === true }];
      });
    case "result":
      return result(r);
    default:
      return [{ type: "raw", stream: "stdout", line }];
  }
}

function assistant(message: Record<string, unknown> | undefined, state: AmpState): OdEventBody[] {
  const messageId = str(message?.id) ?? `amp-msg-${++state.n}`;
  return arr(message?.content).flatMap((b, i): OdEventBody[] => {
    const block = asRecord(b);
    const id = `${messageId}:${i}`;
    if (block?.type === "text" && str(block.text)) return [{ type: "text.delta", id, text: str(block.text)! }];
    if (block?.type === "thinking" && str(block.thinking)) return [{ type: "thinking.delta", id, text: str(block.thinking)! }];
    if (block?.type === "tool_use" && str(block.id)) return [{ type: "tool.call", id: str(block.id)!, name: str(block.name) ?? "tool", input: block.input ?? {} }];
    return [];
  });
}

function result(r: Record<string, unknown>): OdEventBody[] {
  const u = asRecord(r.usage);
  const events: OdEventBody[] = [];
  if (u)
    events.push({
      type: "usage",
      inputTokens: num(u.input_tokens),
      outputTokens: num(u.output_tokens),
      cacheRead: num(u.cache_read_input_tokens),
      cacheWrite: num(u.cache_creation_input_tokens),
      source: "run",
    });
  if (r.is_error === true) events.push(errorFromText(str(r.error) ?? `Amp run failed: ${str(r.subtype) ?? "error"}`, AGENT));
  return events;
}
