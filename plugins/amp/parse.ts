import { asRecord, claudeStream, str } from "../../src/plugin.ts";

/**
 * Amp's `--execute --stream-json-thinking` records: the Claude Code stream-json shape without
 * partial messages (each assistant message arrives whole), plus thinking blocks. The record types
 * and fields are those of @sourcegraph/amp-sdk's `StreamMessage` (system/init, assistant, user
 * with tool_result blocks, result); an error result carries a single `error` string.
 */

export const AGENT = { name: "Amp", login: "run `amp login`, or set AMP_API_KEY" };

export const { createState, parse } = claudeStream({
  agent: AGENT,
  records: {
    stream_event: (_r, _state, line) => [{ type: "raw", stream: "stdout", line }], // not a record Amp writes
    // An error result may carry no `usage`: then there is no usage to report.
    result: (r, state, line, shared) => shared(r, state, line).filter((e) => e.type !== "usage" || asRecord(r.usage)),
  },
  resultError: (r) => (r.is_error === true ? (str(r.error) ?? `Amp run failed: ${str(r.subtype) ?? "error"}`) : undefined),
});
