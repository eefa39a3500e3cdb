import { arr, asRecord, errorFromText, num, type OdEventBody, str, textOf, toolCallEvents } from "../../src/plugin.ts";
import { codexFacts, codexPlan } from "./items.ts";

/** `codex exec --json` records (thread.*, turn.*, item.*, error), mapped to od events. */

export const AGENT = {
  name: "Codex",
  login: "run `codex login` (or `printenv OPENAI_API_KEY | codex login --with-api-key`)",
};

type Rec = Record<string, unknown>;

export interface CodexState {
  /** Characters of text already emitted per agent_message / reasoning item, so an update emits only the new suffix. */
  seen: Map<string, number>;
  /** Tool-like items already announced with a tool.call. */
  open: Set<string>;
  /** An error of this turn was already reported: the closing turn.failed repeats it. */
  failed: boolean;
  /** The plan last shown (as JSON): a todo_list item repeats it on every update. */
  plan?: string;
}

export const createState = (): CodexState => ({ seen: new Map(), open: new Set(), failed: false });

export function parse(record: unknown, state: CodexState, line: string): OdEventBody[] {
  const r = asRecord(record);
  switch (r?.type) {
    case "thread.started":
      return str(r.thread_id) ? [{ type: "session", sessionId: str(r.thread_id)! }] : [];
    case "turn.started":
      return [];
    case "item.started":
    case "item.updated":
    case "item.completed":
      return item(asRecord(r.item), r.type, state, line);
    case "turn.completed":
      return [usage(asRecord(r.usage))];
    case "turn.failed":
      return fail(state, str(asRecord(r.error)?.message) ?? "Codex reported a failed turn");
    case "error":
      return streamError(str(r.message) ?? "", state);
    default:
      return [{ type: "raw", stream: "stdout", line }];
  }
}

function item(it: Rec | undefined, phase: string, state: CodexState, line: string): OdEventBody[] {
  const id = str(it?.id);
  if (!it || !id) return [{ type: "raw", stream: "stdout", line }];
  const completed = phase === "item.completed";
  switch (it.type) {
    case "agent_message":
      return suffix(state, id, str(it.text), "text.delta");
    case "reasoning":
      return suffix(state, id, str(it.text), "thinking.delta");
    case "command_execution": {
      const exit = num(it.exit_code);
      const failed = it.status === "failed" || it.status === "declined" || (exit !== undefined && exit !== 0);
      return tool(state, it, completed, "shell", { command: str(it.command) ?? "" }, () => ({
        output: str(it.aggregated_output) ?? "",
        isError: failed,
      }));
    }
    case "file_change": {
      // Every file_change comes from codex's apply_patch tool.
      return tool(state, it, completed, "apply_patch", { changes: it.changes ?? [] }, () => ({
        output: changeSummary(it.changes),
        isError: it.status === "failed",
      }));
    }
    case "mcp_tool_call": {
      const error = str(asRecord(it.error)?.message);
      const name = `${str(it.server) ?? "mcp"}.${str(it.tool) ?? "tool"}`;
      return tool(state, it, completed, name, it.arguments ?? {}, () => ({
        output: error ?? textOf(asRecord(it.result)?.content ?? ""),
        isError: error !== undefined || it.status === "failed",
      }));
    }
    case "collab_tool_call":
      return tool(state, it, completed, str(it.tool) ?? "collab", { prompt: it.prompt, receivers: it.receiver_thread_ids }, () => ({
        output: str(it.status) ?? "",
        isError: it.status === "failed",
      }));
    case "web_search":
      return webSearch(it, id, phase, state);
    case "todo_list":
      return codexPlan(state, it);
    case "error":
      // A non-fatal notice inside the turn (e.g. a model switch on resume); the turn goes on.
      return [{ type: "status", label: "warning", detail: str(it.message) }];
    default:
      return [{ type: "raw", stream: "stdout", line }];
  }
}

/**
 * A web search is announced with an empty query (`"query":"","action":{"type":"other"}`); the
 * query comes with item.completed (`query`, and `action.query`/`queries` or `action.url`). The
 * call waits for it, so it is shown with its query; meanwhile a status says a search runs.
 */
function webSearch(it: Rec, id: string, phase: string, state: CodexState): OdEventBody[] {
  const action = asRecord(it.action);
  const query = str(it.query) || str(action?.query) || str(action?.url) || "";
  if (phase !== "item.completed" && !query)
    return phase === "item.started" && !state.open.has(id) ? [{ type: "status", label: "searching the web" }] : [];
  const queries = arr(action?.queries).filter((q): q is string => typeof q === "string");
  const input: Rec = { query };
  if (queries.length > 1) input.queries = queries;
  return tool(state, it, phase === "item.completed", "web_search", input, () => ({ output: "", isError: false }));
}

/** "add /path" per change, a line each. */
function changeSummary(changes: unknown): string {
  let summary = "";
  for (const change of arr(changes)) {
    const c = asRecord(change);
    summary += `${summary ? "\n" : ""}${str(c?.kind) ?? "change"} ${str(c?.path) ?? "?"}`;
  }
  return summary;
}

/** Items carry their whole text so far: emit only what was not emitted yet, under the item's id. */
function suffix(state: CodexState, id: string, text: string | undefined, type: "text.delta" | "thinking.delta"): OdEventBody[] {
  const seen = state.seen.get(id) ?? 0;
  if (!text || text.length <= seen) return [];
  state.seen.set(id, text.length);
  return [{ type, id, text: text.slice(seen) }];
}

/** A tool-like item: announced once (started or first seen), closed with its result when completed. */
function tool(
  state: CodexState,
  it: Rec,
  completed: boolean,
  name: string,
  input: unknown,
  result: () => { output: string; isError: boolean },
): OdEventBody[] {
  const id = str(it.id) ?? "";
  // Per tool item: the call's list as made, the result's fields set by name (no copies, no spread).
  let events: OdEventBody[] = [];
  if (!state.open.has(id)) {
    state.open.add(id);
    events = toolCallEvents(id, name, input, codexFacts(it));
  }
  if (completed) {
    const { output, isError } = result();
    events.push({ type: "tool.result", id, output, isError });
  }
  return events;
}

function usage(u: Rec | undefined): OdEventBody {
  return {
    type: "usage",
    inputTokens: num(u?.input_tokens),
    outputTokens: num(u?.output_tokens),
    cacheRead: num(u?.cached_input_tokens),
    cacheWrite: num(u?.cache_write_input_tokens),
    reasoningTokens: num(u?.reasoning_output_tokens),
    source: "turn",
  };
}

/**
 * Top-level `error` records: "Reconnecting... 2/5 (why)" or "Reconnecting... waiting for network"
 * while codex retries, else the turn's fatal error. A rejected key never heals, so a 401 is
 * reported on the first retry and od stops the run there instead of sitting through the rest.
 */
function streamError(message: string, state: CodexState): OdEventBody[] {
  if (!message.startsWith(RECONNECTING)) return fail(state, message);
  const retry = message.slice(RECONNECTING.length).trimStart();
  if (!rejected(retry)) return [{ type: "status", label: "retrying", detail: retry }];
  // "2/5 (unexpected status 401 Unauthorized: ...)": the reason is what the parentheses hold.
  const open = retry.indexOf("(");
  return fail(state, open >= 0 && retry.endsWith(")") ? retry.slice(open + 1, -1) : retry);
}

const RECONNECTING = "Reconnecting...";

/**
 * A retry for a rejected key: `/\b401\b|unauthori[sz]ed/i`, asked only of a text that has "401" or
 * "nauthori" (any case) in it. Most retries wait for the network, and the whole pattern cost more
 * than reading their line.
 */
const rejected = (retry: string): boolean => (retry.includes("401") || NAUTHORI.test(retry)) && REJECTED.test(retry);
const NAUTHORI = /nauthori/i;
const REJECTED = /\b401\b|unauthori[sz]ed/i;

function fail(state: CodexState, message: string): OdEventBody[] {
  if (state.failed) return [];
  state.failed = true;
  // The model provider's `env_key` variable is unset: codex sent nothing, there is no key to use.
  const error = errorFromText(message, AGENT);
  if (/^Missing environment variable/i.test(message)) {
    // Set on the error as made (no copy of it): the same fields, in the same order.
    error.code = "AGENT_AUTH_REQUIRED";
    error.hint = MISSING_KEY_HINT;
  }
  return [error];
}

const MISSING_KEY_HINT = `Set that variable to your provider's API key, or log in: ${AGENT.login}`;
