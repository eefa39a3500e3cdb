import { claudeStream, errorFromText, failedResultText, num, type OdEventBody, str } from "../../src/plugin.ts";

/** Claude Code's `--output-format stream-json` records, mapped to od events. */

export const AGENT = { name: "Claude Code", login: "run `claude` and type /login, or set ANTHROPIC_API_KEY" };

export const { createState, parse } = claudeStream({
  agent: AGENT,
  statusRecords: true,
  toolInputFromDeltas: true,
  // A sub-agent's records (Claude's Task tool) carry the id of the tool call they run under.
  subagents: true,
  system: {
    thinking_tokens: () => [], // a running estimate while thinking streams; the deltas carry the content
    api_retry: apiRetry,
  },
  records: {
    // A synthetic message (auth failure, API error) repeats what `result` reports as an error.
    assistant: (r, state, line, shared) => (r.error !== undefined ? [] : shared(r, state, line)),
  },
  // `subtype` says "success" even for auth failures: `is_error` is the truth.
  resultError: (r) => {
    const text = failedResultText(r, "Claude");
    const status = num(r.api_error_status);
    return text && status && !text.includes(String(status)) ? `${status} ${text}` : text;
  },
});

function apiRetry(r: Record<string, unknown>): OdEventBody[] {
  const status = num(r.error_status);
  // A rejected key never heals by retrying; claude would back off for minutes.
  if (status === 401 || r.error === "authentication_failed")
    return [errorFromText(`The Anthropic API rejected the credentials (HTTP 401, ${str(r.error) ?? "authentication failed"})`, AGENT)];
  return [
    {
      type: "status",
      label: "retrying",
      detail: `attempt ${num(r.attempt) ?? "?"}/${num(r.max_retries) ?? "?"}${status ? ` after HTTP ${status}` : ""}`,
    },
  ];
}
