/**
 * One parser for every CLI that speaks Claude Code's `stream-json` (Claude Code, CodeBuddy Code,
 * Qoder CLI, Qwen Code, Amp): system/init becomes the session; stream_event deltas become text and
 * thinking, with each tool's input JSON accumulated per content block; the `assistant` wrappers
 * that repeat a streamed message are de-duplicated by message id; tool_use and tool_result blocks
 * become tool.call and tool.result; `result` becomes usage and, when it failed, an error; anything
 * else is kept raw. What one CLI does differently goes in its options, named for what it does.
 */
import type { OdEventBody } from "../contract/events.ts";
import { SHARED_RECORDS, SHARED_SYSTEM, STATUS_RECORDS } from "./claude-stream-records.ts";
import type { ClaudeStreamOptions, ClaudeStreamState, Mapper, RecordHook, RecordMapper } from "./claude-stream-types.ts";
import { asRecord, str } from "./parse-helpers.ts";

export { errorOnce, failedResultText, toolCallOnce } from "./claude-stream-records.ts";

export type { ClaudeStreamOptions, ClaudeStreamState, ContentBlock, Mapper, RecordHook, RecordMapper } from "./claude-stream-types.ts";

/** A sub-agent's events; the rest (session, usage, errors) belong to the run. */
const SUBTASK_TYPES = new Set(["text.delta", "thinking.delta", "plan", "tool.call", "tool.result"]);

/** The line protocol's `createState` and `parse` for one CLI. */
export function claudeStream<X extends object = {}>(options: ClaudeStreamOptions<X>) {
  type S = ClaudeStreamState & X;
  // Built on the first record, not when the adapter is defined: every start of od defines them all.
  let records: ((key: unknown) => RecordMapper<S>) | undefined;
  const tables = () => {
    const system = mapperTable<S>(options, { ...SHARED_SYSTEM, ...(options.statusRecords ? STATUS_RECORDS : {}) }, options.system);
    return mapperTable<S>(
      options,
      { ...SHARED_RECORDS, system: (r, state, line) => system(r.subtype)(r, state as S, line) },
      options.records,
    );
  };
  return {
    createState: (): S => ({ blocks: new Map(), streamed: new Set(), calls: new Set(), failed: false, n: 0, ...options.state?.() }) as S,
    parse(record: unknown, state: S, line: string): OdEventBody[] {
      const r = asRecord(record);
      const events = r ? (records ??= tables())(r.type)(r, state, line) : raw(r, state, line);
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
