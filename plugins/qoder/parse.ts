import { arr, asRecord, claudeStream, errorOnce, failedResultText, str, textOf } from "../../src/plugin.ts";

/**
 * `qodercli -p --output-format stream-json`: Claude Code's stream-json records (the bundle's own
 * schemas: system/init, assistant, user, stream_event, result, system/status|permission_denied).
 * Without a partial-messages flag each assistant message arrives whole. A failed turn is an
 * assistant message with `error` (e.g. "authentication_failed") and a `result` with
 * `is_error: true` although its `subtype` says "success".
 */

export const AGENT = { name: "Qoder CLI", login: "run `qodercli login`, or set QODER_PERSONAL_ACCESS_TOKEN" };

export const { createState, parse } = claudeStream({
  agent: AGENT,
  statusRecords: true,
  records: {
    stream_event: () => [], // partial deltas of a message that also arrives whole
    // A synthetic message: its text is the error ("Not logged in · Please run /login"), `error` its kind.
    assistant: (r, state, line, shared) => {
      if (!str(r.error)) return shared(r, state, line);
      return errorOnce(state, `${textOf(arr(asRecord(r.message)?.content)) || "Qoder CLI reported an error"} (${str(r.error)})`, AGENT);
    },
  },
  // The closing `result` repeats the synthetic message's error.
  errorsOnce: true,
  resultError: (r) => failedResultText(r, "Qoder"),
});
