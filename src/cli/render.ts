import type { EventOf, EventType, OdEvent } from "../core/contract/events.ts";
import { partBreak } from "../core/run/parts.ts";
import { type ToolCall, toolCallLine, toolResultLine } from "./tool-line.ts";

export interface Sink {
  write(text: string): unknown;
}

/**
 * The event types the terminal writes nothing for when they come, and why. A type of the contract
 * neither written nor listed here fails test/surfaces.test.ts.
 */
export const NOT_SHOWN: Partial<Record<EventType, string>> = {
  session: "its id closes the run, on the finish line (resume with --resume)",
  "permission.request": "the decision says what was asked (od asks on the terminal itself: tty-broker.ts)",
  usage: "one turn's figures: the run's totals go on the finish line",
  raw: "records od did not understand: kept in the run's log (od runs show), never written as the answer",
  "run.result": "its totals go on the finish line; with --result, its files, tool calls and diff are written",
};

const MARKS = { completed: "[x]", in_progress: "[>]", pending: "[ ]" } as const;

/** A plan as a checklist: "<lead>plan (1/3 done)", then "[x] done", "[>] doing", "[ ] to do" a line, indented under it. */
export function planLines(entries: EventOf<"plan">["entries"], lead: string): string[] {
  const done = entries.filter((e) => e.status === "completed").length;
  const indent = " ".repeat(lead.length + 2);
  return [`${lead}plan (${done}/${entries.length} done)`, ...entries.map((e) => `${indent}${MARKS[e.status]} ${clip(e.content, 160)}`)];
}

/** The header's word on the sandbox: what holds the mode besides the CLI's flags. */
function held(sandbox: EventOf<"run.started">["sandbox"]): string {
  if (sandbox?.kind === "landlock") return " · kernel sandbox: Landlock";
  if (sandbox?.kind === "seatbelt") return " · kernel sandbox: Seatbelt";
  return "";
}

/**
 * Renders events for people: the assistant's text on stdout as it streams,
 * everything else (status, tools, plans, errors, the closing summary) on stderr.
 */
export function createTextRenderer(out: Sink, err: Sink, color = false, opts: { result?: boolean } = {}) {
  const dim = (s: string) => (color ? `\x1b[2m${s}\x1b[0m` : s);
  const red = (s: string) => (color ? `\x1b[31m${s}\x1b[0m` : s);
  let atLineStart = true;
  const thinking = new Set<string>();
  /** The answer's last part id and last two characters written: a new part starts a new paragraph. */
  let part: string | undefined;
  let tail = "";
  /** The run's usage summed over its turns (from run.result), for the closing line. */
  let usage: EventOf<"run.result">["usage"];
  let sessionId: string | undefined;
  // Whether the agent was started, and an error shown: a run refused before it started (an unknown
  // agent, a CLI not installed) ends with its error alone, no "failed in 0.0s" under it.
  let started = false;
  let erred = false;
  /** The run's folder (paths are shown from it), and each open tool call, for the line its result gets. */
  let cwd = "";
  const calls = new Map<string, ToolCall>();

  const note = (text: string) => {
    if (!atLineStart) {
      out.write("\n");
      atLineStart = true;
    }
    err.write(`${text}\n`);
  };

  return (e: OdEvent): void => {
    switch (e.type) {
      case "run.started":
        started = true;
        cwd = e.cwd;
        note(dim(`od: ${e.agent} (${e.mode}) in ${e.cwd || "the login directory"}${e.on ? ` on ${e.on}` : ""}${held(e.sandbox)}`));
        // The kernel not holding a mode it could be asked to hold is said, not hidden in the header.
        if (e.sandbox?.note) note(dim(`od: ${e.sandbox.note}`));
        return;
      case "text.delta": {
        // A sub-agent's words are progress of its tool call, not the answer.
        if (e.parent) return note(dim(`  ↳ ${clip(e.text, 200)}`));
        if (!e.text) return;
        // A note since the last part ended its line on stdout: that line break counts toward the paragraph's.
        if (atLineStart && tail && !tail.endsWith("\n")) tail = `${tail}\n`.slice(-2);
        // A new part comes with its paragraph break (parts.ts): the terminal's own count of line breaks decides it here.
        const text = part !== undefined && e.id !== part ? partBreak(tail) + e.text.replace(/^\n+/, "") : e.text;
        part = e.id;
        out.write(text);
        tail = (tail + text).slice(-2);
        atLineStart = text.endsWith("\n");
        return;
      }
      case "thinking.delta":
        if (!thinking.has(e.id)) note(dim("· thinking…"));
        thinking.add(e.id);
        return;
      case "plan":
        return note(dim(planLines(e.entries, e.parent ? "  ↳ " : "· ").join("\n")));
      case "tool.call":
        // `kind` and `paths`, where the event carries them, are read by the formatter.
        calls.set(e.id, e as ToolCall);
        return note(dim(`${e.parent ? "  ↳ " : ""}${toolCallLine(e as ToolCall, cwd)}`));
      case "tool.result": {
        const line = `${e.parent ? "  ↳ " : ""}${toolResultLine(calls.get(e.id), e, cwd)}`;
        calls.delete(e.id);
        return note(e.isError ? red(line) : dim(line));
      }
      case "status":
        return note(dim(`· ${e.label}${e.detail ? `: ${clip(e.detail, 200)}` : ""}`));
      case "permission.decision":
        return note(dim(`· permission ${e.decision === "allow" ? "granted" : "denied"} (${e.by}${e.reason ? `: ${e.reason}` : ""})`));
      case "error":
        erred = true;
        return note(`${red(`✗ ${e.message}`)} ${dim(`[${e.code}]`)}${e.hint ? `\n${dim("hint:")} ${e.hint}` : ""}`);
      case "session":
        sessionId = e.sessionId;
        return;
      case "run.result":
        usage = e.usage;
        if (!opts.result) return;
        note(dim(resultLines(e).join("\n")));
        if (e.diff) err.write(`${e.diff}\n`);
        return;
      case "run.finished":
        if (!started && erred && e.status === "failed") return;
        return note(dim(`od: ${closing(e, usage, sessionId)}`));
      case "permission.request":
      case "usage":
      case "raw":
        return;
      default:
        return unknownType(e);
    }
  };
}

/** Every type is a case above: a new one fails to compile until it is written or listed in NOT_SHOWN. */
function unknownType(event: never): void {
  void event;
}

/** --result's summary lines: files changed, tool calls, the error. */
function resultLines(e: EventOf<"run.result">): string[] {
  const failed = e.toolCalls.filter((c) => c.isError).length;
  const lines = [
    `files changed: ${e.files.length ? e.files.join(", ") : "none"}`,
    `tool calls: ${e.toolCalls.length}${failed ? ` (${failed} failed)` : ""}`,
  ];
  if (e.errorCode) lines.push(`error: ${e.errorCode}: ${clip(e.errorMessage ?? "", 200)}`);
  if (e.note) lines.push(e.note);
  return lines.map((l) => `od: ${l}`);
}

/** The closing line: status and time, tokens summed over the turns, cost, how to resume. */
function closing(e: EventOf<"run.finished">, usage: EventOf<"run.result">["usage"] | undefined, sessionId?: string): string {
  const parts = [`${e.status} in ${(e.durationMs / 1000).toFixed(1)}s`];
  if (usage?.inputTokens !== undefined || usage?.outputTokens !== undefined)
    parts.push(`${usage.inputTokens ?? 0} in / ${usage.outputTokens ?? 0} out tokens`);
  if (usage?.costUsd !== undefined) parts.push(`$${usage.costUsd.toFixed(4)}`);
  if (e.resumable && sessionId) parts.push(`resume with --resume ${sessionId}`);
  return parts.join(", ");
}

function clip(text: string, max: number): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}
