import { type OdEventBody, TOOL_KINDS, type ToolKind } from "../contract/events.ts";
import { arr, asRecord, partText, type Rec, str, textOf } from "./parse-helpers.ts";
import { pathsIn, type ToolRule } from "./tool-facts.ts";

/**
 * ACP tool calls, merged per id: `tool_call` opens one, `tool_call_update`s carry only the
 * fields that changed (a last update may bring just the status), and a permission request
 * describes the call too. Each call becomes exactly one `tool.call` and one `tool.result`,
 * whether the agent finishes it, od denies it, or the turn ends first.
 */

/**
 * ACP's ToolKind as od's: the same word, but `delete` and `move` are edits (they change files) and
 * `switch_mode` (or no kind, or one od does not know) is other, ACP's own default.
 */
export function acpToolKind(kind: unknown): ToolKind {
  if (kind === "delete" || kind === "move") return "edit";
  return typeof kind === "string" && KNOWN_KINDS.has(kind) ? (kind as ToolKind) : "other";
}

const KNOWN_KINDS: ReadonlySet<string> = new Set(TOOL_KINDS);

const TERMINAL = new Set(["completed", "failed", "cancelled", "canceled", "error", "succeeded", "success"]);
const FAILED = new Set(["failed", "cancelled", "canceled", "error"]);

/** The calls of one run by id (part of the driver's per-run state). */
export interface ToolState {
  tools: Map<string, Tool>;
  /**
   * The adapter's own word on some of its agent's tools, by name (driver option `tools`): what a
   * call is (its kind replaces the one the agent claims) and which input keys name its files, for
   * agents whose calls and permission requests say too little or the wrong thing.
   */
  rules?: Record<string, ToolRule>;
}

export interface Tool {
  called: boolean;
  done: boolean;
  name?: string;
  title?: string;
  kind?: string;
  input?: unknown;
  locations: string[];
  /** The last content the agent showed (some agents complete a call with none). */
  content?: unknown[];
  /** The last rawOutput the agent sent: a later update that carries only a status keeps it. */
  rawOutput?: unknown;
}

/** The call's state by id, merged with what this update (or permission request) says about it. */
export function mergeTool(u: Rec, state: ToolState, id: string): Tool {
  let tool = state.tools.get(id);
  if (!tool) state.tools.set(id, (tool = newTool()));
  const meta = asRecord(u._meta);
  tool.name = str(meta?.toolName) ?? str(asRecord(meta?.claudeCode)?.toolName) ?? str(u.name) ?? tool.name;
  tool.title = str(u.title) ?? tool.title;
  tool.kind = str(u.kind) ?? tool.kind;
  if (u.rawInput !== undefined && !isEmpty(u.rawInput)) tool.input = u.rawInput;
  if (u.rawOutput !== undefined) tool.rawOutput = u.rawOutput;
  // Most updates carry only a status: no lists are made for what they leave out.
  const content = Array.isArray(u.content) ? u.content : undefined;
  if (content?.length) tool.content = content;
  if (Array.isArray(u.locations)) for (const l of u.locations) addPath(tool, str(asRecord(l)?.path));
  if (content) for (const c of content) if (asRecord(c)?.type === "diff") addPath(tool, str(asRecord(c)?.path));
  const rule = ruleFor(state.rules, tool);
  if (rule) {
    tool.name ??= rule.name;
    tool.kind = rule.kind;
    for (const p of pathsIn(tool.input, rule.paths)) addPath(tool, p);
  }
  return tool;
}

/** A call not seen before, with every field there from the start: all calls have one shape, whatever their updates set. */
const newTool = (): Tool => ({
  called: false,
  done: false,
  name: undefined,
  title: undefined,
  kind: undefined,
  input: undefined,
  locations: [],
  content: undefined,
  rawOutput: undefined,
});

/**
 * The adapter's rule for a call: by the name the agent gives it, else by its title, which some
 * agents start with the tool's name ("editor: {…}", Cline's).
 */
function ruleFor(rules: ToolState["rules"], tool: Tool): (ToolRule & { name: string }) | undefined {
  if (!rules) return undefined;
  const title = tool.title ?? "";
  const name = tool.name ?? Object.keys(rules).find((n) => title === n || title.startsWith(`${n}:`));
  const rule = name !== undefined && Object.hasOwn(rules, name) ? asRecord(rules[name]) : undefined;
  const kind = TOOL_KINDS.find((k) => k === rule?.kind);
  if (!name || !kind) return undefined;
  const paths = arr(rule?.paths).filter((p): p is string => typeof p === "string");
  return { name, kind, paths };
}

/**
 * Tool updates: the call is emitted once its input is known (agents open calls with
 * placeholders like "Preparing file…" and {}, and fill them in later) or at the latest when it
 * ends; the result once its status is terminal.
 */
export function toolEvents(u: Rec, state: ToolState): OdEventBody[] {
  const id = str(u.toolCallId);
  if (!id) return [];
  const tool = mergeTool(u, state, id);
  const status = str(u.status);
  const terminal = status !== undefined && TERMINAL.has(status);
  const events: OdEventBody[] = [];
  if (!tool.called && (tool.input !== undefined || terminal)) events.push(callOf(id, tool));
  if (terminal && !tool.done) {
    const failed = FAILED.has(status!);
    // A failed call's own words (rawOutput: "Plan mode does not permit changes…") say more than the diff it proposed.
    const output =
      failed && tool.rawOutput !== undefined ? (str(asRecord(tool.rawOutput)?.message) ?? textOf(tool.rawOutput)) : outputOf(tool);
    events.push(resultOf(id, tool, output, failed));
  }
  return events;
}

/**
 * A call od denied: shown as its `tool.call` (if the agent had not shown it yet) and a `tool.result`
 * that says it was denied and why. The agent's own later updates for it add nothing.
 */
export function deniedTool(toolCall: Rec, state: ToolState, fallbackId: string, reason: string): OdEventBody[] {
  const id = str(toolCall.toolCallId) ?? fallbackId;
  const tool = mergeTool(toolCall, state, id);
  const events: OdEventBody[] = [];
  if (!tool.called) events.push(callOf(id, tool));
  if (!tool.done) events.push(resultOf(id, tool, `Denied by od: ${reason}`, true));
  return events;
}

/** Calls the agent opened and never finished, when the turn ends or the agent exits: each shown and closed. */
export function unfinishedTools(state: ToolState, why: string): OdEventBody[] {
  const events: OdEventBody[] = [];
  for (const [id, tool] of state.tools) {
    if (!tool.called) events.push(callOf(id, tool));
    if (!tool.done) events.push(resultOf(id, tool, `(no result: ${why} before this tool finished)`, true));
  }
  return events;
}

function callOf(id: string, tool: Tool): OdEventBody {
  tool.called = true;
  const call: Extract<OdEventBody, { type: "tool.call" }> = {
    type: "tool.call",
    id,
    name: tool.name ?? tool.title ?? tool.kind ?? "tool",
    input: tool.input ?? placeholder(tool),
    kind: acpToolKind(tool.kind),
  };
  if (tool.locations.length) call.paths = tool.locations.slice();
  return call;
}

/** The input of a call the agent never gave one: its title and locations, as far as known. */
function placeholder(tool: Tool): Rec {
  const input: Rec = {};
  if (tool.title) input.title = tool.title;
  if (tool.locations.length) input.locations = tool.locations;
  return input;
}

function resultOf(id: string, tool: Tool, output: string, isError: boolean): OdEventBody {
  tool.done = true;
  // A finished call is shown and closed: what it carried (its input, content, output) is not read again.
  tool.input = tool.content = tool.rawOutput = undefined;
  return { type: "tool.result", id, output, isError };
}

function addPath(tool: Tool, path: string | undefined): void {
  if (path && !tool.locations.includes(path)) tool.locations.push(path);
}

function isEmpty(v: unknown): boolean {
  if (typeof v !== "object" || v === null) return false;
  for (const _ in v) return false; // no list of keys made to count them
  return true;
}

/** ACP tool content: text blocks, diffs (shown as what changed where), terminals; else the last rawOutput. */
function outputOf(tool: Tool): string {
  let out: string | undefined;
  for (const c of tool.content ?? []) {
    const r = asRecord(c);
    const part =
      r?.type === "content"
        ? partText(asRecord(r.content))
        : r?.type === "diff"
          ? `diff ${str(r.path) ?? ""}`
          : r?.type === "terminal"
            ? `terminal ${str(r.terminalId) ?? ""}`
            : undefined;
    if (part !== undefined) out = out === undefined ? part : `${out}\n${part}`;
  }
  if (out !== undefined) return out;
  return tool.rawOutput === undefined ? "" : textOf(tool.rawOutput);
}
