import { asRecord, claudeStream, errorFromText, failedResultText, type OdEventBody, textOf } from "../../src/plugin.ts";

/**
 * CodeBuddy Code's `-p --output-format stream-json` records (the Claude Code shape), mapped to od
 * events. Quirks seen in 2.117.0 against the model stub:
 * - with `--include-partial-messages` the answer streams as `stream_event` deltas, and the
 *   `assistant` wrappers repeat it, thinking under a different message id: once deltas were seen,
 *   wrapper text and thinking are ignored;
 * - a failed request (401, not logged in) arrives as a made-up `assistant` text ("401 Unauthorized")
 *   followed by an `is_error` result: wrapper text is held for one record and dropped before an
 *   error result, so it never shows as the agent's answer;
 * - tool results always say `is_error: false`; failures and permission refusals are texts that
 *   start with "Error:".
 */

export const AGENT = { name: "CodeBuddy Code", login: "run `codebuddy` and type /login, or set CODEBUDDY_API_KEY" };

const DENIED = /^Error: Permission to use (\S+) has been denied/;

const stream = claudeStream({
  agent: AGENT,
  state: () => ({
    /** A stream_event arrived: from then on wrappers only repeat the deltas. */
    partial: false,
    /** Wrapper text waiting to see whether an error result follows it. */
    held: [] as OdEventBody[],
  }),
  system: { status: () => [] },
  records: {
    "file-history-snapshot": () => [], // CodeBuddy's own undo bookkeeping
    error: (r) => [sessionError(textOf(r.error) || "CodeBuddy reported an error")],
    stream_event: (r, state, line, shared) => {
      state.partial = true;
      return shared(r, state, line);
    },
    assistant: (r, state, line, shared) => {
      const events = shared(r, state, line);
      // A message that calls a tool is the model's own; only a text-only one can be a made-up error.
      if (events.some((e) => e.type === "tool.call")) return events;
      state.held.push(...events);
      return [];
    },
    user: (r, state, line, shared) => shared(r, state, line).flatMap(toolResult),
  },
  wrapperRepeatsDeltas: (state) => state.partial,
  // The exit code is 0 and `subtype` may look harmless: `is_error` is the truth.
  resultError: (r) => failedResultText(r, "CodeBuddy"),
});

type CodeBuddyState = ReturnType<typeof stream.createState>;

export const createState = stream.createState;

export function parse(record: unknown, state: CodeBuddyState, line: string): OdEventBody[] {
  const r = asRecord(record);
  // Text held back by the record before comes out first, unless this record is the error it stood for.
  if (r?.type === "result" && r.is_error === true) state.held = [];
  return [...finish(state), ...stream.parse(record, state, line)];
}

export function finish(state: CodeBuddyState): OdEventBody[] {
  const held = state.held;
  state.held = [];
  return held;
}

function toolResult(result: OdEventBody): OdEventBody[] {
  if (result.type !== "tool.result") return [result];
  const denied = result.output.match(DENIED);
  const failed: OdEventBody = { ...result, isError: result.isError || result.output.startsWith("Error:") };
  if (!denied) return [failed];
  const { id, output } = result;
  return [
    { type: "permission.request", id, tool: denied[1]!, detail: output.split(". ")[0] },
    {
      type: "permission.decision",
      id,
      decision: "deny",
      by: "policy",
      reason: "CodeBuddy's permission mode refused it (no prompts in print mode)",
    },
    failed,
  ];
}

function sessionError(message: string): OdEventBody {
  if (!/no conversation found/i.test(message)) return errorFromText(message, AGENT);
  return {
    type: "error",
    code: "INVALID_REQUEST",
    message,
    hint: "Resume with a session id CodeBuddy knows (same HOME), or start a new run without --resume.",
    retryable: false,
  };
}
