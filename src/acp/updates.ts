import type { PlanEntry, SessionUpdate, StopReason, ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";
import type { OdEvent, OdEventBody } from "../core/contract/events.ts";

/** What the mapping remembers within one prompt turn: the tool calls the client has been shown. */
export interface UpdateState {
  shown: Set<string>;
}

export const newUpdateState = (): UpdateState => ({ shown: new Set() });

/** Tool names as the agents spell them, by ACP tool kind; any other name is "other". */
const KINDS: [ToolKind, RegExp][] = [
  ["read", /^(read|read_?file|view|cat|notebookread|read_many_files)$/i],
  ["edit", /^(write|edit|multiedit|write_?file|replace|create|str_replace\w*|apply_?patch|notebookedit|patch)$/i],
  ["execute", /^(bash|shell|run_shell_command|exec(_command)?|command|terminal|local_shell)$/i],
  ["search", /^(grep|glob|search\w*|find|list(_directory)?|ls|codebase_search)$/i],
  ["fetch", /^(web_?fetch|fetch|web_?search|google_web_search)$/i],
  ["think", /^(task|agent|think|todo_?write)$/i],
];

export function toolKind(name: string): ToolKind {
  return KINDS.find(([, re]) => re.test(name))?.[0] ?? "other";
}

const rec = (v: unknown): Record<string, unknown> =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const text = (v: unknown): string | undefined => (typeof v === "string" && v.length ? v : undefined);

/** The files a tool call names in its input, where it names them the usual ways. */
function locations(input: unknown): ToolCallLocation[] {
  const r = rec(input);
  const path = text(r.file_path) ?? text(r.path) ?? text(r.filePath) ?? text(r.notebook_path) ?? text(r.absolute_path);
  return path ? [{ path }] : [];
}

/** "Bash: ls -la", "Write: src/a.ts": the name, and what it acts on when the input says so (cut at 80 characters). */
function title(name: string, input: unknown): string {
  const r = rec(input);
  const what = text(r.command) ?? text(r.file_path) ?? text(r.path) ?? text(r.filePath) ?? text(r.pattern) ?? text(r.url) ?? text(r.query);
  const full = what ? `${name}: ${what.replace(/\s+/g, " ")}` : name;
  return full.length > 80 ? `${full.slice(0, 79)}…` : full;
}

/** A plan as od's `status` "plan" carries it ("[x] done", "[ ] todo", "✓ done", "· todo" a line) as ACP plan entries. */
export function planEntries(detail: string | undefined): PlanEntry[] {
  return (detail ?? "")
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const done = /^(\[x\]|✓)\s*/i.exec(line);
      const open = /^(\[ \]|·|-|\*)\s*/.exec(line);
      const content = line.slice((done ?? open)?.[0].length ?? 0);
      return { content, priority: "medium", status: done ? "completed" : "pending" };
    });
}

const chunk = (kind: "agent_message_chunk" | "agent_thought_chunk", t: string): SessionUpdate => ({
  sessionUpdate: kind,
  content: { type: "text", text: t },
});

/**
 * One od event as the ACP `session/update`s a client shows: text and thoughts as chunks (a
 * sub-agent's text as thought: it is not the answer), a tool call and its result as `tool_call`
 * and `tool_call_update` with their status, a plan as `plan`. The rest (usage, raw lines,
 * permission bookkeeping, errors, the run's own events) is not the client's to show as updates.
 */
export function toUpdates(event: OdEvent | OdEventBody, state: UpdateState): SessionUpdate[] {
  switch (event.type) {
    case "text.delta":
      return event.text ? [chunk(event.parent ? "agent_thought_chunk" : "agent_message_chunk", event.text)] : [];
    case "thinking.delta":
      return event.text ? [chunk("agent_thought_chunk", event.text)] : [];
    case "tool.call": {
      const fields = { title: title(event.name, event.input), kind: toolKind(event.name), rawInput: event.input };
      const where = locations(event.input);
      if (state.shown.has(event.id))
        return [{ sessionUpdate: "tool_call_update", toolCallId: event.id, ...fields, ...(where.length ? { locations: where } : {}) }];
      state.shown.add(event.id);
      return [{ sessionUpdate: "tool_call", toolCallId: event.id, ...fields, status: "in_progress", locations: where }];
    }
    case "tool.result": {
      const opened: SessionUpdate[] = state.shown.has(event.id)
        ? []
        : [{ sessionUpdate: "tool_call", toolCallId: event.id, title: "tool", kind: "other", status: "in_progress" }];
      state.shown.add(event.id);
      const content = event.output ? [{ type: "content" as const, content: { type: "text" as const, text: event.output } }] : [];
      return [
        ...opened,
        { sessionUpdate: "tool_call_update", toolCallId: event.id, status: event.isError ? "failed" : "completed", content },
      ];
    }
    case "status": {
      if (event.label !== "plan") return [];
      const entries = planEntries(event.detail);
      return entries.length ? [{ sessionUpdate: "plan", entries }] : [];
    }
    default:
      return [];
  }
}

/**
 * How a turn ended, in ACP's words, from the run's events: cancelled, cut off at the output limit
 * (max_tokens) or the turn limit (max_turn_requests), refused by the agent (refusal), or done.
 * Undefined for a run that failed otherwise: that is an error, not a stop reason.
 */
export function stopReasonOf(events: Array<OdEvent | OdEventBody>): StopReason | undefined {
  const finished = events.find((e) => e.type === "run.finished");
  if (finished?.type === "run.finished" && finished.status === "cancelled") return "cancelled";
  for (const e of events) {
    if (e.type === "status" && /max_tokens|cut off at the output limit/.test(`${e.label} ${e.detail ?? ""}`)) return "max_tokens";
    if (e.type === "status" && /max_turn/.test(e.label)) return "max_turn_requests";
    if (e.type === "error" && / refused the prompt$/.test(e.message)) return "refusal";
  }
  return finished?.type === "run.finished" && finished.status === "succeeded" ? "end_turn" : undefined;
}
