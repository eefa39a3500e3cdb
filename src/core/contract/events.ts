import { ERROR_CODES } from "./errors.ts";
import { type EventType, PLAN_PRIORITIES, PLAN_STATUSES, TOOL_KINDS } from "./event-types.ts";
import { built, lazySchema, once } from "./lazy.ts";
import { z } from "./zod.ts";

export {
  EVENT_TYPES,
  type EventType,
  PLAN_PRIORITIES,
  PLAN_STATUSES,
  type PlanPriority,
  type PlanStatus,
  TOOL_KINDS,
  type ToolKind,
} from "./event-types.ts";

/** Permission modes, from least to most authority. */
export const Mode = lazySchema(() => z.enum(["read-only", "edit", "full"]));
/** An error code as a schema (the list itself is errors.ts's, which stays free of zod). */
export const ErrorCode = lazySchema(() => z.enum(ERROR_CODES));
export type ErrorCode = z.infer<typeof ErrorCode>;
export type Mode = z.infer<typeof Mode>;

/** One step of an agent's plan (ACP's PlanEntry; the priority only where the agent gives one). */
export const PlanEntry = lazySchema(() =>
  z.object({
    content: z.string(),
    status: z.enum(PLAN_STATUSES),
    priority: z.enum(PLAN_PRIORITIES).optional(),
  }),
);
export type PlanEntry = z.infer<typeof PlanEntry>;

// The schemas below are built on first use (lazy.ts): a start of od that validates no event builds none.
const shapes = once(() => {
  const envelope = {
    runId: z.string(),
    seq: z.number().int().nonnegative(),
    ts: z.number().describe("epoch milliseconds"),
  };

  const count = z.number().nonnegative().optional();

  const figures = {
    inputTokens: count,
    outputTokens: count,
    cacheRead: count,
    cacheWrite: count,
    reasoningTokens: count,
    costUsd: count,
  };

  /** A run's usage, summed over its turns and attempts (per model where the agent says which). */
  const UsageTotals = z.object({
    ...figures,
    byModel: z.record(z.string(), z.object(figures)).optional(),
  });

  /** Set on the work of a sub-agent: the id of the tool call (e.g. Claude's Task) that it runs under. */
  const parent = z.string().optional().describe("the tool.call this belongs to, for a sub-agent's activity");

  /** Each event's payload; the envelope (runId, seq, ts) is stamped by the pipeline. */
  const bodies = {
    "run.started": {
      agent: z.string(),
      bin: z.string(),
      version: z.string().optional(),
      argv: z.array(z.string()).describe("the argv as spawned, prompt redacted"),
      cwd: z.string(),
      model: z.string().optional(),
      effort: z.string().optional(),
      mode: built(Mode),
      /** The target the agent runs on (`ssh://…`, `docker://…`); absent on this machine. */
      on: z.string().optional(),
      /**
       * What holds the mode besides the CLI's own flags: the kernel (`landlock`, `seatbelt`) with the
       * paths the agent may write and those kept read-only, od's own tools (`in-process`), or nothing
       * (`none`: full mode, or `note` says why). Absent from runs recorded before it existed.
       */
      sandbox: z
        .object({
          kind: z.enum(["landlock", "seatbelt", "in-process", "none"]),
          writable: z.array(z.string()).optional(),
          readOnly: z.array(z.string()).optional(),
          note: z.string().optional(),
        })
        .optional(),
    },
    /** `resumable: false`: the agent said this session cannot be loaded again (an ACP agent without loadSession). */
    session: { sessionId: z.string(), model: z.string().optional(), resumable: z.boolean().optional() },
    status: { label: z.string(), detail: z.string().optional() },
    "text.delta": { id: z.string(), text: z.string(), parent },
    "thinking.delta": { id: z.string(), text: z.string(), parent },
    /** The agent's plan as a whole, each time it changes (a later one replaces it, as in ACP). */
    plan: { entries: z.array(built(PlanEntry)), parent },
    "tool.call": {
      id: z.string(),
      name: z.string(),
      input: z.unknown(),
      /** Set by every built-in from what its CLI says (ACP's `kind`, or the CLI's own tool names); absent from plugins that do not say. */
      kind: z.enum(TOOL_KINDS).optional().describe("what the call does: read, edit, execute, search, fetch, think or other"),
      /**
       * The files (or folders) the call acts on, as the CLI names them, in its order: a relative path is
       * relative to the run's cwd (run.started), and a consumer that needs it absolute resolves it there.
       */
      paths: z.array(z.string()).optional().describe("the files it acts on, as the CLI names them (relative ones: to run.started's cwd)"),
      parent,
    },
    "tool.result": { id: z.string(), output: z.string(), isError: z.boolean(), parent },
    "permission.request": {
      id: z.string(),
      tool: z.string(),
      detail: z.string().optional(),
      options: z.array(z.string()).optional(),
    },
    "permission.decision": {
      id: z.string(),
      decision: z.enum(["allow", "deny"]),
      by: z.enum(["policy", "user", "timeout"]),
      reason: z.string().optional(),
    },
    usage: {
      ...figures,
      source: z.enum(["turn", "run"]).describe("turn: figures for one model turn; run: totals for the whole run"),
    },
    raw: { stream: z.enum(["stdout", "stderr"]), line: z.string() },
    error: { code: built(ErrorCode), message: z.string(), hint: z.string().optional(), retryable: z.boolean() },
    "run.result": {
      text: z.string().describe("the final answer (the main agent's text, sub-agents excluded)"),
      toolCalls: z.array(z.object({ id: z.string(), name: z.string(), isError: z.boolean() })),
      files: z.array(z.string()).describe("files changed in the working directory during the run"),
      diff: z.string().optional().describe("git diff of those files, in a repository"),
      errorCode: ErrorCode.optional(),
      errorMessage: z.string().optional(),
      rawTail: z.string().describe("the last raw stdout lines, for debugging"),
      usage: UsageTotals.optional().describe("tokens and cost summed over the run's turns; absent when the agent reported none"),
      note: z.string().optional(),
    },
    "run.finished": {
      status: z.enum(["succeeded", "failed", "cancelled"]),
      exitCode: z.number().int().nullable(),
      signal: z.string().nullable(),
      durationMs: z.number().nonnegative(),
      sessionId: z.string().optional(),
      resumable: z.boolean(),
    },
  } as const satisfies Record<EventType, z.ZodRawShape>;
  return { envelope, bodies };
});

function variant<T extends EventType>(type: T) {
  const { envelope, bodies } = shapes();
  return z.object({ type: z.literal(type), ...envelope, ...bodies[type] });
}

/** The union, in the order of EVENT_TYPES (a test holds the order; `listed` below, the set). */
export const OdEvent = lazySchema(() =>
  z.discriminatedUnion("type", [
    variant("run.started"),
    variant("session"),
    variant("status"),
    variant("text.delta"),
    variant("thinking.delta"),
    variant("plan"),
    variant("tool.call"),
    variant("tool.result"),
    variant("permission.request"),
    variant("permission.decision"),
    variant("usage"),
    variant("raw"),
    variant("error"),
    variant("run.result"),
    variant("run.finished"),
  ]),
);
export type OdEvent = z.infer<typeof OdEvent>;

/** A name in EVENT_TYPES without its variant here (or a variant not named there) fails to compile. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const listed: Same<OdEvent["type"], EventType> = true;
void listed;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** An event as a parser emits it: everything but the envelope. */
export type OdEventBody = DistributiveOmit<OdEvent, "runId" | "seq" | "ts">;
export type EventOf<T extends EventType> = Extract<OdEvent, { type: T }>;
export type BodyOf<T extends EventType> = Extract<OdEventBody, { type: T }>;

/** The event model as JSON Schema, served at GET /api/schema/events. */
export function eventJsonSchema(): unknown {
  return z.toJSONSchema(OdEvent, { unrepresentable: "any" });
}

/**
 * Stamps bodies with the run's envelope: the one place a `seq` is assigned.
 * seq is monotonic from `from` (0 for a new run; a recovered log continues
 * after its last line), and `ts` follows the order of stamping.
 */
export function createStamper(runId: string, from = 0, now: () => number = Date.now) {
  let seq = from;
  return (body: OdEventBody): OdEvent => ({ ...body, runId, seq: seq++, ts: now() }) as OdEvent;
}

/** Whether a plugin's (or a loop's) body is a valid event once stamped; `run.*` events are the pipeline's own. */
export function isEventBody(body: unknown): body is OdEventBody {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
  const type = (body as { type?: unknown }).type;
  if (typeof type === "string" && type.startsWith("run.")) return false;
  return OdEvent.safeParse({ ...body, runId: "-", seq: 0, ts: 0 }).success;
}
