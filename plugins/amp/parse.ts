import { asRecord, claudeStream, type OdEventBody, str, todosAt, toolTable } from "../../src/plugin.ts";

/**
 * Amp's `--execute --stream-json-thinking` records: the Claude Code stream-json shape without
 * partial messages (each assistant message arrives whole), plus thinking blocks. The record types
 * and fields are those of @sourcegraph/amp-sdk's `StreamMessage` (system/init, assistant, user
 * with tool_result blocks, result); an error result carries a single `error` string.
 *
 * The lines come as text (the protocol's `format: "text"`), since one plain line matters: with no
 * API key Amp prints "No API key found. Starting login flow..." on stdout and then waits for a
 * login code on stdin for good (od's prompt, which has no final newline, never completes it). That
 * line is the missing login, at once: od stops the run there.
 */

export const AGENT = { name: "Amp", login: "run `amp login`, or set AMP_API_KEY" };

/** Amp's tools (its own names; its Read and Bash capitalised, the rest not): kind, the input keys naming files, the todo list. */
export const ampTools = toolTable({
  Read: { kind: "read", paths: ["path"] },
  create_file: { kind: "edit", paths: ["path"] },
  edit_file: { kind: "edit", paths: ["path"] },
  undo_edit: { kind: "edit", paths: ["path"] },
  format_file: { kind: "edit", paths: ["path"] },
  Bash: { kind: "execute" },
  Grep: { kind: "search", paths: ["path"] },
  glob: { kind: "search" },
  list_directory: { kind: "search", paths: ["path"] },
  codebase_search_agent: { kind: "search" },
  finder: { kind: "search" },
  read_web_page: { kind: "fetch" },
  web_search: { kind: "fetch" },
  Task: { kind: "think" },
  oracle: { kind: "think" },
  todo_write: { kind: "think", plan: todosAt() },
  todo_read: { kind: "think" },
});

const stream = claudeStream({
  agent: AGENT,
  tools: ampTools,
  records: {
    stream_event: (_r, _state, line) => [{ type: "raw", stream: "stdout", line }], // not a record Amp writes
    // An error result may carry no `usage`: then there is no usage to report.
    result: (r, state, line, shared) => shared(r, state, line).filter((e) => e.type !== "usage" || asRecord(r.usage)),
  },
  resultError: (r) => (r.is_error === true ? (str(r.error) ?? `Amp run failed: ${str(r.subtype) ?? "error"}`) : undefined),
});

export const createState = stream.createState;
type State = ReturnType<typeof createState>;

export function parse(_record: unknown, state: State, line: string): OdEventBody[] {
  if (!line.trim()) return [];
  if (/^\s*[{[]/.test(line)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return [{ type: "raw", stream: "stdout", line }];
    }
    return stream.parse(parsed, state, line);
  }
  const raw: OdEventBody = { type: "raw", stream: "stdout", line };
  if (!/^No API key found\b/.test(line) || state.failed) return [raw];
  state.failed = true;
  const message = "Amp is not logged in: it started its login flow (No API key found)";
  return [raw, { type: "error", code: "AGENT_AUTH_REQUIRED", message, hint: `Log in: ${AGENT.login}`, retryable: false }];
}
