import {
  acpToolKind,
  arr,
  asRecord,
  errorFromText,
  num,
  type OdEventBody,
  pathsIn,
  str,
  textOf,
  todoPlan,
  toolCallEvents,
} from "../../src/plugin.ts";

/**
 * Grok Build's `--output-format streaming-json`: one `type`-tagged record per line, taken from its
 * ACP session updates (leaf fields `toolCallId`, `kind`, `rawInput`, `rawOutput` follow ACP;
 * `toolName` and `usage` lines are xAI's). `text` and `thought` are chunks; a `usage` line closes
 * each model response; `end` is always last and carries the session id and the run's totals.
 */

export const AGENT = { name: "Grok Build", login: "run `grok login` (or `grok login --device-auth`), or set XAI_API_KEY" };

/** Grok Build's own folder (also grok-acp's): `$GROK_HOME`, else ~/.grok. */
export const GROK_STATE = [
  "{GROK_HOME:-.grok}/", // config.toml, auth.json, sessions, the docs it extracts on launch (docs.x.ai/build/settings, its user guide 02-authentication, 26-config-reference)
];

export interface GrokState {
  /** Text and thought chunks between two other records form one part. */
  part: number;
  last?: "text" | "thought";
  /** The part's id (`text-3`), made once per part, not per chunk. */
  id?: string;
  /** Tool calls already closed, so a repeated terminal update is not a second result. */
  closed: Set<string>;
}

export const createState = (): GrokState => ({ part: 0, closed: new Set() });

const DONE = new Set(["completed", "succeeded", "success"]);
const FAILED = new Set(["failed", "error", "cancelled"]);

export function parse(record: unknown, state: GrokState, line: string): OdEventBody[] {
  const r = asRecord(record);
  const type = str(r?.type);
  if (type !== "text" && type !== "thought") state.last = undefined;
  switch (type) {
    case "text":
    case "thought":
      return chunk(r!, type, state);
    case "tool_call": {
      // The call, then its result when the call comes done: one list, no copies of the two.
      const events = toolCall(r!);
      for (const e of toolEnd(r!, state)) events.push(e);
      return events;
    }
    case "tool_call_update":
      return toolEnd(r!, state);
    case "usage":
      return [usage(asRecord(r!.usage), "turn")];
    case "end":
      return end(r!);
    case "error":
      return [errorFromText(str(r!.message) || textOf(r!.error) || "Grok reported an error", AGENT)];
    case "plan":
      return [{ type: "plan", entries: todoPlan(r!.entries) }];
    case "available_commands":
      return [];
    default:
      return type === "max_turns_reached" || type?.startsWith("auto_compact")
        ? [{ type: "status", label: type }]
        : [{ type: "raw", stream: "stdout", line }];
  }
}

function chunk(r: Record<string, unknown>, type: "text" | "thought", state: GrokState): OdEventBody[] {
  if (state.last !== type) state.id = `${type}-${++state.part}`;
  state.last = type;
  const text = str(r.data) ?? str(r.text) ?? str(r.delta);
  if (!text) return [];
  return [{ type: type === "text" ? "text.delta" : "thinking.delta", id: state.id!, text }];
}

/** Kinds whose input names a file (Grok's own tools call it `path`). */
const ON_FILES = new Set(["read", "edit", "search"]);

/** A call as ACP says it: its kind, and the files its locations name (none listed: the file its input names). */
function toolCall(r: Record<string, unknown>): OdEventBody[] {
  const kind = acpToolKind(r.kind);
  const located: string[] = [];
  for (const l of arr(r.locations)) {
    const path = asRecord(l)?.path;
    if (typeof path === "string" && path && !located.includes(path)) located.push(path);
  }
  const paths = located.length || !ON_FILES.has(kind) ? located : pathsIn(r.rawInput, ["path", "file_path"]);
  const facts: { kind: typeof kind; paths?: string[] } = { kind };
  if (paths.length) facts.paths = paths;
  return toolCallEvents(str(r.toolCallId) ?? "", str(r.toolName) ?? str(r.title) ?? "tool", r.rawInput ?? {}, facts);
}

/** A terminal status closes the call; progress updates say nothing od shows. */
function toolEnd(r: Record<string, unknown>, state: GrokState): OdEventBody[] {
  const id = str(r.toolCallId) ?? "";
  const status = str(r.status) ?? "";
  if (!(DONE.has(status) || FAILED.has(status)) || state.closed.has(id)) return [];
  state.closed.add(id);
  const output = acpContent(r.content) || (r.rawOutput === undefined ? "" : textOf(r.rawOutput));
  return [{ type: "tool.result", id, output, isError: FAILED.has(status) }];
}

/** ACP tool content: `{type: "content", content: {type: "text", text}}` items (diffs and terminals summarised). */
function acpContent(content: unknown): string {
  let out = "";
  for (const item of arr(content)) {
    const c = asRecord(item);
    const text = c?.type === "content" ? textOf(c.content) : textOf(item);
    if (text) out = out ? `${out}\n${text}` : text;
  }
  return out;
}

function end(r: Record<string, unknown>): OdEventBody[] {
  const events: OdEventBody[] = [];
  const sessionId = str(r.sessionId) ?? str(r.session_id);
  if (sessionId) events.push({ type: "session", sessionId });
  const total = usage(asRecord(r.usage), "run");
  total.costUsd = num(r.total_cost_usd);
  events.push(total);
  const stop = str(r.stopReason);
  if (stop && stop !== "end_turn") events.push({ type: "status", label: "stopped", detail: stop });
  return events;
}

function usage(u: Record<string, unknown> | undefined, source: "turn" | "run"): Extract<OdEventBody, { type: "usage" }> {
  return {
    type: "usage",
    inputTokens: num(u?.input_tokens),
    outputTokens: num(u?.output_tokens),
    cacheRead: num(u?.cache_read_input_tokens),
    cacheWrite: num(u?.cache_creation_input_tokens),
    reasoningTokens: num(u?.reasoning_tokens),
    source,
  };
}
