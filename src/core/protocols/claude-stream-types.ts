/** The types of the shared stream-json parser (claude-stream.ts) and its record mappings (claude-stream-records.ts). */
import type { OdEventBody } from "../contract/events.ts";
import type { Rec } from "./parse-helpers.ts";
import type { ToolDescriber } from "./tool-facts.ts";

/** A content block of the message streaming now: what a tool call needs once its input is complete. */
export interface ContentBlock {
  type: string;
  id?: string;
  name?: string;
  json: string;
  /** The input content_block_start carried (some providers send it whole there, with no deltas). */
  input?: unknown;
}

export interface ClaudeStreamState {
  /** The message currently streaming (stream_event) and its open content blocks, by index. */
  messageId?: string;
  blocks: Map<number, ContentBlock>;
  /** Messages whose text/thinking already streamed as deltas: their wrappers must not repeat it. */
  streamed: Set<string>;
  /** Tool calls already emitted, by id. */
  calls: Set<string>;
  /** An error was already reported (see `errorOnce`). */
  failed: boolean;
  /** Synthetic counter for records without ids. */
  n: number;
  /** The id of the block the last delta went to, made once per block (deltaId). */
  deltaId?: { messageId: string; index: number; id: string };
}

/** Maps one record. */
export type RecordMapper<S> = (r: Rec, state: S, line: string) => OdEventBody[];
/** A CLI's own mapping of one record; `shared` is the shared one (a raw line where there is none). */
export type RecordHook<S> = (r: Rec, state: S, line: string, shared: RecordMapper<S>) => OdEventBody[];
/** A shared mapping of one record, given the CLI's options. */
export type Mapper = (r: Rec, state: ClaudeStreamState, line: string, options: ClaudeStreamOptions<object>) => OdEventBody[];

export interface ClaudeStreamOptions<X> {
  /** Names the CLI in its errors and says how to log in. */
  agent: { name: string; login: string };
  /** The error text of a `result` record that failed, undefined for one that did not (see `failedResultText`). */
  resultError: (r: Rec) => string | undefined;
  /** Per-run state the CLI's own hooks keep beside the shared state. */
  state?: () => X;
  /** Record types (`type`) the CLI adds, or maps its own way. */
  records?: Record<string, RecordHook<ClaudeStreamState & X>>;
  /** `system` subtypes the CLI adds, or maps its own way (`init` is shared). */
  system?: Record<string, RecordHook<ClaudeStreamState & X>>;
  /** Also map system/status and system/permission_denied, as Claude Code writes them. */
  statusRecords?: boolean;
  /** Tag a sub-agent's events with the tool call it runs under (`parent_tool_use_id`, Claude's Task tool). */
  subagents?: boolean;
  /** A wrapper's tool input is the JSON its deltas streamed, when they did (Claude Code writes it before content_block_stop). */
  toolInputFromDeltas?: boolean;
  /** Whether an `assistant` wrapper only repeats text it streamed (default: its own message streamed deltas). */
  wrapperRepeatsDeltas?: (state: ClaudeStreamState & X, messageId: string) => boolean;
  /** Report the first error only: the closing `result` repeats one the stream already reported. */
  errorsOnce?: boolean;
  /** The CLI's tools by name, when it does not name them as Claude Code does (claude-tools.ts): each call's kind, files and plan. */
  tools?: ToolDescriber;
}
