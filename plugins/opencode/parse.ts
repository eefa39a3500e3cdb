import { asRecord, errorFromText, num, type OdEventBody, str, todosAt, toolCallEvents, toolTable } from "../../src/plugin.ts";

/**
 * `opencode run --format json` records: `{type, timestamp, sessionID, part | error}` per line.
 * Text and reasoning parts arrive whole (one record per part, no deltas); a tool part arrives once,
 * when the tool has finished; there is no start or end record: the run ends when the process exits.
 */

export const AGENT = { name: "OpenCode", login: "run `opencode auth login`, or set the provider's API key in opencode.json" };

/** opencode's error names as words the shared classifier understands (the name is the only sign of the kind). */
const NAMED_ERRORS: Record<string, string> = {
  ProviderAuthError: "Provider authentication failed",
  ContextOverflowError: "Context length exceeded",
  MessageOutputLengthError: "Output length limit reached",
  ContentFilterError: "Blocked by the provider's content filter",
  MessageAbortedError: "Aborted",
};

/** OpenCode's tools (its `tool` names): kind, the input keys naming files, the todo list. `invalid` (a call it could not run) is other. */
export const opencodeTools = toolTable({
  read: { kind: "read", paths: ["filePath"] },
  write: { kind: "edit", paths: ["filePath"] },
  edit: { kind: "edit", paths: ["filePath"] },
  multiedit: { kind: "edit", paths: ["filePath"] },
  patch: { kind: "edit" },
  apply_patch: { kind: "edit" },
  bash: { kind: "execute" },
  grep: { kind: "search", paths: ["path"] },
  glob: { kind: "search", paths: ["path"] },
  list: { kind: "search", paths: ["path"] },
  codesearch: { kind: "search" },
  webfetch: { kind: "fetch" },
  websearch: { kind: "fetch" },
  task: { kind: "think" },
  todowrite: { kind: "think", plan: todosAt() },
  todoread: { kind: "think" },
});

export interface OpencodeState {
  sessionId?: string;
  /** Tool calls already emitted, by callID. */
  calls: Set<string>;
  /** Tool calls already closed with their result: opencode re-prints a finished part on later updates. */
  results: Set<string>;
  /** Totals over every step, flushed as the run's usage when stdout closes. */
  total?: { input: number; output: number; reasoning: number; cacheRead: number; cacheWrite: number; cost: number };
  n: number;
}

export const createState = (): OpencodeState => ({ calls: new Set(), results: new Set(), n: 0 });

export function parse(record: unknown, state: OpencodeState, line: string): OdEventBody[] {
  const r = asRecord(record);
  // One list per record, pushed to (no copies of it per step).
  const events = session(state, str(r?.sessionID));
  const part = asRecord(r?.part);
  switch (r?.type) {
    case "step_start":
      break;
    case "text":
    case "reasoning": {
      const text = str(part?.text);
      if (text) events.push({ type: r.type === "text" ? "text.delta" : "thinking.delta", id: partId(part, state), text });
      break;
    }
    case "tool_use":
      tool(part, state, events);
      break;
    case "step_finish":
      events.push(stepUsage(part, state));
      break;
    case "error":
      events.push(error(r.error, str(r?.message)));
      break;
    default:
      events.push({ type: "raw", stream: "stdout", line });
  }
  return events;
}

/** The run's usage totals, when any step reported some. */
export function finish(state: OpencodeState): OdEventBody[] {
  const t = state.total;
  if (!t) return [];
  return [
    {
      type: "usage",
      inputTokens: t.input,
      outputTokens: t.output,
      reasoningTokens: t.reasoning,
      cacheRead: t.cacheRead,
      cacheWrite: t.cacheWrite,
      costUsd: t.cost,
      source: "run",
    },
  ];
}

/** Every record carries the session id; the first one names the resume handle. */
function session(state: OpencodeState, id: string | undefined): OdEventBody[] {
  if (!id || state.sessionId) return [];
  state.sessionId = id;
  return [{ type: "session", sessionId: id }];
}

function partId(part: Record<string, unknown> | undefined, state: OpencodeState): string {
  return str(part?.id) ?? `part-${++state.n}`;
}

/** A tool part's call (once) and its result (once it finished), added to `events`. */
function tool(part: Record<string, unknown> | undefined, state: OpencodeState, events: OdEventBody[]): void {
  const id = str(part?.callID) ?? str(part?.id);
  if (!id) return;
  const s = asRecord(part?.state);
  if (!state.calls.has(id)) {
    state.calls.add(id);
    const name = str(part?.tool) ?? "tool";
    const input = jsonInput(s?.input);
    for (const e of toolCallEvents(id, name, input, opencodeTools(name, input))) events.push(e);
  }
  const status = str(s?.status);
  if ((status === "completed" || status === "error") && !state.results.has(id)) {
    state.results.add(id);
    // "invalid" is opencode's stand-in for a call it could not run (an unknown tool, bad arguments).
    const exit = num(asRecord(s?.metadata)?.exit);
    const isError = status === "error" || part?.tool === "invalid" || (exit !== undefined && exit !== 0);
    events.push({ type: "tool.result", id, output: str(s?.error) ?? str(s?.output) ?? "", isError });
  }
}

/** Tool input is an object, or (in some versions) its JSON text. */
function jsonInput(input: unknown): unknown {
  if (typeof input !== "string") return input ?? {};
  try {
    return JSON.parse(input);
  } catch {
    return { _raw: input };
  }
}

function stepUsage(part: Record<string, unknown> | undefined, state: OpencodeState): OdEventBody {
  const tokens = asRecord(part?.tokens);
  const cache = asRecord(tokens?.cache);
  const step = {
    input: num(tokens?.input) ?? 0,
    output: num(tokens?.output) ?? 0,
    reasoning: num(tokens?.reasoning) ?? 0,
    cacheRead: num(cache?.read) ?? 0,
    cacheWrite: num(cache?.write) ?? 0,
    cost: num(part?.cost) ?? 0,
  };
  const t = (state.total ??= { input: 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0, cost: 0 });
  // Per step: each total added to by name (no list of keys, no look-up by a computed key).
  t.input += step.input;
  t.output += step.output;
  t.reasoning += step.reasoning;
  t.cacheRead += step.cacheRead;
  t.cacheWrite += step.cacheWrite;
  t.cost += step.cost;
  return {
    type: "usage",
    inputTokens: step.input,
    outputTokens: step.output,
    reasoningTokens: step.reasoning,
    cacheRead: step.cacheRead,
    cacheWrite: step.cacheWrite,
    costUsd: step.cost,
    source: "turn",
  };
}

/**
 * `{name, data: {message, statusCode?, responseBody?}}` (or only a message, or an error that is a
 * string): always the run's failure, whatever opencode's exit code says (attached to a server, or in
 * older versions, it exits 0 after one). An `UnknownError` carries the words of an error opencode
 * has no name for (a provider's `AI_APICallError: …`), or only "Check server logs": then the cause
 * is in its log on stderr (`--print-logs`), where `classify` finds it once the process fails. An
 * `APIError`'s message may be only the gateway's ("Provider returned error"): the provider's own
 * words are in `responseBody`.
 */
function error(raw: unknown, fallback: string | undefined): OdEventBody {
  const e = asRecord(raw);
  const name = str(e?.name) ?? "Error";
  const data = asRecord(e?.data);
  let message = str(data?.message) ?? str(e?.message) ?? str(raw) ?? fallback ?? name;
  const reason = providerReason(data?.responseBody);
  if (reason && !message.includes(reason)) message = `${message}: ${reason}`;
  const status = num(data?.statusCode);
  const named = NAMED_ERRORS[name];
  return errorFromText(`${status !== undefined ? `${status} ` : ""}${named ? `${named}: ` : ""}${message}`, AGENT);
}

/**
 * The provider's message in a response body (JSON text): `error.message`, or the upstream's own
 * body that a gateway passes on in `error.metadata.raw` (OpenRouter), or a top-level `message`.
 */
function providerReason(body: unknown, nested = false): string | undefined {
  const text = str(body)?.trim();
  if (!text) return undefined;
  let parsed: Record<string, unknown> | undefined;
  try {
    parsed = asRecord(JSON.parse(text));
  } catch {
    return nested ? text.slice(0, 500) : undefined; // a gateway's raw upstream text is the reason itself
  }
  const e = asRecord(parsed?.error) ?? parsed;
  const upstream = nested ? undefined : providerReason(asRecord(e?.metadata)?.raw, true);
  return upstream ?? str(e?.message) ?? str(parsed?.message) ?? str(parsed?.detail);
}
