import type { OdEventBody } from "../events.ts";
import { arr, asRecord, num, type Rec, str, textOf } from "./parse-helpers.ts";

/** Per-run bookkeeping for session/update: text part numbering and tool calls accumulated by id. */
export interface UpdateState {
  /** Bumped whenever something else comes between two message chunks, so each text run has its own id. */
  part: number;
  lastKind?: string;
  tools: Map<string, unknown>;
  /** While a session/load replays history, updates are the past: they are not re-emitted. */
  loading?: boolean;
}

const TERMINAL = new Set(["completed", "failed", "cancelled", "canceled", "error", "succeeded", "success"]);
const FAILED = new Set(["failed", "cancelled", "canceled", "error"]);
const DROPPED = new Set(["available_commands_update", "session_info_update", "usage_update", "config_option_update", "user_message_chunk"]);

export function sessionUpdate(update: unknown, state: UpdateState, line: string): OdEventBody[] {
  const u = asRecord(update);
  const kind = str(u?.sessionUpdate);
  if (!u || !kind) return [{ type: "raw", stream: "stdout", line }];
  if (state.loading) return [];
  const usage = usageOf(asRecord(asRecord(u._meta)?.usage));
  if (DROPPED.has(kind)) return usage ? [usage] : [];
  if (kind !== state.lastKind && (kind === "agent_message_chunk" || kind === "agent_thought_chunk")) state.part++;
  state.lastKind = kind;
  switch (kind) {
    case "agent_message_chunk":
    case "agent_thought_chunk": {
      const text = str(asRecord(u.content)?.text);
      const events: OdEventBody[] = text
        ? [{ type: kind === "agent_message_chunk" ? "text.delta" : "thinking.delta", id: `p${state.part}`, text }]
        : [];
      if (usage) events.push(usage);
      return events;
    }
    case "tool_call":
    case "tool_call_update":
      return toolEvents(u, state);
    case "plan": {
      const entries = arr(u.entries).map(
        (e) => `${str(asRecord(e)?.status) === "completed" ? "✓" : "·"} ${str(asRecord(e)?.content) ?? ""}`,
      );
      return [{ type: "status", label: "plan", detail: entries.join("\n") }];
    }
    case "current_mode_update":
      return [{ type: "status", label: "mode", detail: str(u.currentModeId) }];
    default:
      return [{ type: "raw", stream: "stdout", line }];
  }
}

/** Token counts some agents attach to updates (`_meta.usage`, e.g. Qwen Code): a usage event per model turn. */
function usageOf(u: Rec | undefined): OdEventBody | undefined {
  if (!u || (num(u.inputTokens) === undefined && num(u.outputTokens) === undefined)) return undefined;
  return {
    type: "usage",
    inputTokens: num(u.inputTokens),
    outputTokens: num(u.outputTokens),
    cacheRead: num(u.cachedReadTokens),
    reasoningTokens: num(u.thoughtTokens),
    source: "turn",
  };
}

interface Tool {
  called: boolean;
  done: boolean;
  name?: string;
  title?: string;
  input?: unknown;
  locations: string[];
  /** The last content the agent showed (some agents complete a call with none). */
  content?: unknown[];
}

/**
 * Tool updates are merged per id: the call is emitted once its input is known
 * (agents open calls with placeholders like "Preparing file…" and {}, and fill
 * them in later) or at the latest when it ends; the result once its status is terminal.
 */
export function toolEvents(u: Rec, state: UpdateState, emit = true): OdEventBody[] {
  const id = str(u.toolCallId);
  if (!id) return [];
  const tool: Tool = (state.tools.get(id) as Tool | undefined) ?? { called: false, done: false, locations: [] };
  state.tools.set(id, tool);
  const meta = asRecord(u._meta);
  tool.name = str(meta?.toolName) ?? str(asRecord(meta?.claudeCode)?.toolName) ?? str(u.name) ?? tool.name;
  tool.title = str(u.title) ?? tool.title;
  if (u.rawInput !== undefined && !isEmpty(u.rawInput)) tool.input = u.rawInput;
  const content = arr(u.content);
  if (content.length) tool.content = content;
  for (const l of arr(u.locations)) addPath(tool, str(asRecord(l)?.path));
  for (const c of content) if (asRecord(c)?.type === "diff") addPath(tool, str(asRecord(c)?.path));
  const status = str(u.status);
  const terminal = status !== undefined && TERMINAL.has(status);
  const events: OdEventBody[] = [];
  if (!emit) return events;
  if (!tool.called && (tool.input !== undefined || terminal)) {
    tool.called = true;
    const input = tool.input ?? {
      ...(tool.title ? { title: tool.title } : {}),
      ...(tool.locations.length ? { locations: tool.locations } : {}),
    };
    events.push({ type: "tool.call", id, name: tool.name ?? tool.title ?? str(u.kind) ?? "tool", input });
  }
  if (terminal && !tool.done) {
    tool.done = true;
    events.push({
      type: "tool.result",
      id,
      output: outputOf({ ...u, content: content.length ? content : (tool.content ?? []) }),
      isError: FAILED.has(status!),
    });
  }
  return events;
}

function addPath(tool: Tool, path: string | undefined): void {
  if (path && !tool.locations.includes(path)) tool.locations.push(path);
}

function isEmpty(v: unknown): boolean {
  return typeof v === "object" && v !== null && Object.keys(v).length === 0;
}

/** ACP tool content: text blocks, diffs (shown as what changed where), terminals; else rawOutput. */
function outputOf(u: Rec): string {
  const parts = arr(u.content).flatMap((c) => {
    const r = asRecord(c);
    if (r?.type === "content") return textOf([asRecord(r.content)]);
    if (r?.type === "diff") return `diff ${str(r.path) ?? ""}`;
    if (r?.type === "terminal") return `terminal ${str(r.terminalId) ?? ""}`;
    return [];
  });
  if (parts.length) return parts.join("\n");
  return u.rawOutput === undefined ? "" : textOf(u.rawOutput);
}
