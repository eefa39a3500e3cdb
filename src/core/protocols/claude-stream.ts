/**
 * One parser for every CLI that speaks Claude Code's `stream-json` (Claude Code, CodeBuddy Code,
 * Qoder CLI, Qwen Code, Amp): system/init becomes the session; stream_event deltas become text and
 * thinking, with each tool's input JSON accumulated per content block; the `assistant` wrappers
 * that repeat a streamed message are de-duplicated by message id; tool_use and tool_result blocks
 * become tool.call and tool.result; `result` becomes usage and, when it failed, an error; anything
 * else is kept raw. What one CLI does differently goes in its options, named for what it does.
 */
import type { OdEventBody } from "../events.ts";
import { SHARED_RECORDS, SHARED_SYSTEM, STATUS_RECORDS } from "./claude-stream-records.ts";
import { asRecord, type Rec, str } from "./parse-helpers.ts";

export { errorOnce, failedResultText, parseToolInput, toolCallOnce } from "./claude-stream-records.ts";

/** A content block of the message streaming now: what a tool call needs once its input is complete. */
export interface ContentBlock {
  type: string;
  id?: string;
  name?: string;
  json: string;
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
}

/** A sub-agent's events; the rest (session, usage, errors) belong to the run. */
const SUBTASK_TYPES = new Set(["text.delta", "thinking.delta", "tool.call", "tool.result"]);

/** The line protocol's `createState` and `parse` for one CLI. */
export function claudeStream<X extends object = {}>(options: ClaudeStreamOptions<X>) {
  type S = ClaudeStreamState & X;
  const system = mapperTable<S>(options, { ...SHARED_SYSTEM, ...(options.statusRecords ? STATUS_RECORDS : {}) }, options.system);
  const records = mapperTable<S>(
    options,
    { ...SHARED_RECORDS, system: (r, state, line) => system(r.subtype)(r, state as S, line) },
    options.records,
  );
  return {
    createState: (): S => ({ blocks: new Map(), streamed: new Set(), calls: new Set(), failed: false, n: 0, ...options.state?.() }) as S,
    parse(record: unknown, state: S, line: string): OdEventBody[] {
      const r = asRecord(record);
      const events = r ? records(r.type)(r, state, line) : raw(r, state, line);
      const parent = options.subagents ? str(r?.parent_tool_use_id) : undefined;
      return parent ? events.map((e) => (SUBTASK_TYPES.has(e.type) ? ({ ...e, parent } as OdEventBody) : e)) : events;
    },
  };
}

/**
 * The mapping of each record type (or system subtype): the CLI's hook where it has one, handed the
 * shared mapping, else the shared mapping; a raw line for what neither knows.
 */
function mapperTable<S>(options: object, mappers: Record<string, Mapper>, hooks: Record<string, RecordHook<S>> = {}) {
  // The shared mappings call the options' hooks (typed for S) with the state they are given: the CLI's S.
  const sharedOptions = options as ClaudeStreamOptions<object>;
  const mapperOf = new Map(Object.entries(mappers));
  const hookOf = new Map(Object.entries(hooks));
  const table = new Map<string, RecordMapper<S>>();
  for (const key of new Set([...mapperOf.keys(), ...hookOf.keys()])) {
    const mapper = mapperOf.get(key);
    const shared: RecordMapper<S> = mapper ? (r, state, line) => mapper(r, state as ClaudeStreamState, line, sharedOptions) : raw;
    const hook = hookOf.get(key);
    table.set(key, hook ? (r, state, line) => hook(r, state, line, shared) : shared);
  }
  return (key: unknown): RecordMapper<S> => (typeof key === "string" && table.get(key)) || raw;
}

const raw = (_r: unknown, _state: unknown, line: string): OdEventBody[] => [{ type: "raw", stream: "stdout", line }];
