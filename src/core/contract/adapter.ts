import { DetectSchema, fn } from "./detect.ts";
import type { ErrorCode } from "./errors.ts";
import type { OdEventBody } from "./events.ts";
import { lazySchema } from "./lazy.ts";
import type { McpServer } from "./mcp.ts";
import type { ValidRequest } from "./request.ts";
import { z } from "./zod.ts";

export type { AuthState } from "./detect.ts";

/**
 * What `invoke` receives: the request as validated (its prompt composed with the skills; `model`
 * undefined means "pass no model flag"; `role`, `allowedTools` and `maxTurns` only for adapters
 * whose capabilities take them), and what od decided before the process starts.
 */
export interface InvokeContext
  extends Pick<ValidRequest, "prompt" | "cwd" | "mode">,
    Partial<Pick<ValidRequest, "model" | "effort" | "resume" | "role" | "allowedTools" | "maxTurns">> {
  /** The resolved executable. */
  bin: string;
  /** Flags found in the CLI's `--help` when detection scanned it (detect.help); undefined when unknown. */
  flags?: ReadonlySet<string>;
  /** For prompt delivery "file": the file holding the prompt (private, removed after the run). */
  promptFile?: string;
  /** The run's private temp folder, when the kernel sandbox holds the run: where a CLI that keeps run data in the working directory keeps it in read-only mode. */
  tmpDir?: string;
  /**
   * The run's MCP servers (never empty when set), for an adapter with capabilities.mcpServers: its
   * CLI takes them by flags (values that may be secrets in `env`, never in argv) or by a config file
   * it returns in `files`. An ACP agent's driver hands them over in its session instead.
   */
  mcpServers?: McpServer[];
  /** A private folder (made 0700 at launch, removed after the run) where `files` are written. */
  filesDir?: string;
}

/** What `invoke` returns. `argv` excludes the executable itself; never a shell string. */
export interface Invocation {
  argv: string[];
  /** Extra environment for the child, on top of the parent's. */
  env?: Record<string, string>;
  /** Bytes written to stdin, which is then closed (prompt delivery `stdin`). */
  stdin?: string;
  /** Files to write (0600) in `ctx.filesDir` before the CLI starts, by plain name ("mcp.json"); removed after the run. */
  files?: Record<string, string>;
  /** What the run says, once, after its header, about how the CLI was set up (an MCP server it could not be given, and why). */
  notes?: Array<{ label: string; detail: string }>;
}

export interface ClassifyContext {
  exitCode: number | null;
  signal: string | null;
  stderrTail: string;
  /** The run's recent events (bounded), without their envelope. */
  events: readonly OdEventBody[];
}

export interface Classification {
  code: ErrorCode;
  message: string;
  hint?: string;
}

/** A line protocol: one record per stdout line (JSON, or plain text), mapped by a pure function. */
export interface LinesProtocol<S = unknown> {
  kind: "lines";
  /** "json" (default): each line is JSON.parse'd first and non-JSON lines become `raw`; "text": parse gets every line as a string. */
  format?: "json" | "text";
  createState: () => S;
  /** Pure: a parsed JSON record (and its original line) to zero or more events. Must never throw. */
  parse: (record: unknown, state: S, line: string) => OdEventBody[];
  /** Events to flush when stdout closes (e.g. a final usage total). */
  finish?: (state: S) => OdEventBody[];
}

/** A session driver (RPC over stdio) implemented in core/protocols, chosen by name. */
export interface DriverProtocol {
  kind: "driver";
  driver: string;
  /** Options for the driver, e.g. for "acp": { modes: { "read-only": { configId: "mode", value: "plan" } } } (a session option per od mode). */
  options?: Record<string, unknown>;
}

/**
 * An agent loop that runs inside od instead of a spawned executable
 * (core/loops, chosen by name). It gets the run's settings as a typed object
 * (mode, model, resume, turn cap), invoke's env and stdin (the prompt) and the
 * cwd, and yields od event bodies; invoke's argv is only shown. Cancel, timeout
 * and closing work exactly as for a spawned agent. `bin` is a label only.
 */
export interface LoopProtocol {
  kind: "loop";
  loop: string;
}

export type Protocol = LinesProtocol<any> | DriverProtocol | LoopProtocol;

const kebab = () => z.string().regex(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/, "id must be kebab-case (e.g. my-agent)");

const ProtocolSchema = () =>
  z.discriminatedUnion("kind", [
    z.object({
      kind: z.literal("lines"),
      format: z.enum(["json", "text"]).optional(),
      createState: fn<LinesProtocol<any>["createState"]>("protocol.createState"),
      parse: fn<LinesProtocol<any>["parse"]>("protocol.parse"),
      finish: fn<NonNullable<LinesProtocol<any>["finish"]>>("protocol.finish").optional(),
    }),
    z.object({ kind: z.literal("driver"), driver: z.string().min(1), options: z.record(z.string(), z.unknown()).optional() }),
    z.object({ kind: z.literal("loop"), loop: z.string().min(1) }),
  ]);

/** Built on first use (lazy.ts): `od run --agent x` validates one adapter, `--version` none. */
export const AdapterSchema = lazySchema(() =>
  z
    .object({
      id: kebab(),
      name: z.string().min(1),
      homepage: z.string().url().optional(),
      /** The command a user runs to install the CLI. */
      install: z.string().min(1),
      /** What a user runs to log in, shown on AGENT_AUTH_REQUIRED. */
      login: z.string().optional(),
      bin: z.string().min(1),
      fallbackBins: z.array(z.string().min(1)).default([]),
      /** Environment variable that overrides the executable; defaults to <ID>_BIN. */
      envOverride: z.string().optional(),
      version: z
        .object({
          args: z.array(z.string()).default(["--version"]),
          parse: fn<(output: string) => string | undefined>("version.parse").optional(),
        })
        .default({ args: ["--version"] }),
      /**
       * Where the CLI keeps its own state (config, sessions, logs, caches), relative to HOME, absolute,
       * or `{VAR:-fallback}/…` (`{VAR}/…`: only when VAR is set); a folder ends with "/" (made when
       * missing, as the CLI would make it); without it a file or folder is granted only if it exists,
       * and never its siblings (a temp file renamed over it). In read-only and edit mode these, the
       * working directory (edit) and a private temp folder are the only places the agent may write.
       */
      state: z.array(z.string().min(1)).default([]),
      /**
       * What in its state names commands it runs (hooks, notify, MCP servers: its config) or is its own
       * executable, spelled as `state` is: kept read-only in read-only and edit mode where the kernel
       * can (as `.git`), so an agent cannot plant a command that runs later, outside any sandbox. Only
       * what exists when the run starts (a file is kept by a bind mount of itself).
       */
      lockedState: z.array(z.string().min(1)).default([]),
      /**
       * State a list cannot name, made from the user's id (Reasonix's `/tmp/reasonix-config-locks-<hash>/`):
       * absolute folders (ending "/"). One in a shared folder such as /tmp is granted only when it is a real
       * folder of this user's (made by od when missing), never a link someone else put there.
       */
      stateFor: fn<(uid: number) => string[]>("stateFor").optional(),
      /** How `od agents` / `od doctor` probe the CLI; every part optional, every probe time-bounded. */
      detect: DetectSchema.default({}),
      /** Documented model ids or aliases; `default` (no model flag) is always allowed. */
      models: z.array(z.string().min(1)).default([]),
      /** A model to fall back to when the chosen one is rate limited (announced as a retry, never silent). */
      rateLimitFallbackModel: z.string().min(1).optional(),
      /** Effort levels of the CLI's real effort flag; empty when it has none. */
      efforts: z.array(z.string().min(1)).default([]),
      capabilities: z.object({
        streaming: z.boolean(),
        resume: z.boolean(),
        images: z.boolean().default(false),
        /** The CLI has a read-only flag or session mode of its own; without one, read-only is held by the kernel sandbox alone (refused where there is none). */
        readOnly: z.boolean(),
        /** Edit mode can hold the CLI to file edits by its own flags; false when headless it runs every tool unasked (then only the kernel sandbox holds edit mode, and without one od runs it in full mode only). */
        edit: z.boolean().default(true),
        relayApprovals: z.boolean().default(false),
        /**
         * The CLI confines its tools in a kernel sandbox of its own that must mount (bubblewrap), which
         * cannot start inside od's: where od's sandbox holds a run, the CLI's flags are a full run's
         * (its own sandbox off) and od's wall holds the mode. Codex's does this.
         */
        ownSandbox: z.boolean().default(false),
        /** The CLI selects a role definition by a flag of its own (Claude's --agent). */
        roles: z.boolean().default(false),
        /** The CLI takes a list of pre-approved tools (--allowedTools and the like). */
        allowedTools: z.boolean().default(false),
        /** The CLI takes a cap on agentic turns (--max-turns). */
        maxTurns: z.boolean().default(false),
        /**
         * The CLI takes MCP servers per run: `invoke` gets them in ctx.mcpServers (a driver protocol's
         * session gets them instead). Without it a run given servers goes on without them, and says so.
         */
        mcpServers: z.boolean().default(false),
        skills: z.enum(["native", "prompt", "file"]).default("prompt"),
      }),
      /** Where `od init` writes a role: a file per role ("{name}" in the path) or an instruction file with one section per role (default AGENTS.md). */
      roleTarget: z.string().optional(),
      /** Where skills go: for "native" a folder in the cwd (".claude/skills"), for "file" a file ("AGENTS.md", ".cursor/rules/{name}.mdc"). */
      skillTarget: z.string().optional(),
      prompt: z.object({
        via: z.enum(["stdin", "file", "argv", "protocol"]),
        maxPromptArgBytes: z.number().int().positive().optional(),
      }),
      invoke: fn<(ctx: InvokeContext) => Invocation>("invoke"),
      protocol: ProtocolSchema(),
      classify: fn<(ctx: ClassifyContext) => Classification | undefined>("classify").optional(),
    })
    .refine((a) => a.prompt.via !== "argv" || a.prompt.maxPromptArgBytes !== undefined, {
      message: "an adapter that passes the prompt in argv must declare prompt.maxPromptArgBytes",
      path: ["prompt", "maxPromptArgBytes"],
    })
    .refine((a) => a.capabilities.skills === "prompt" || a.skillTarget !== undefined, {
      message: 'a "native" or "file" skill strategy needs skillTarget',
      path: ["skillTarget"],
    })
    .refine((a) => (a.prompt.via === "protocol") === (a.protocol.kind === "driver"), {
      message: "prompt.via 'protocol' goes with a driver protocol, and only with one",
      path: ["prompt", "via"],
    }),
);

export type AdapterInput = z.input<typeof AdapterSchema> & { protocol: Protocol };
export type Adapter = z.output<typeof AdapterSchema> & { protocol: Protocol };

/** Identity helper: declare an adapter with full type inference. Validation happens at load. */
export function defineAdapter<const A extends AdapterInput>(adapter: A): A {
  return adapter;
}

/** Identity helper for a line protocol, so `state` is typed from `createState`. */
export function defineLinesProtocol<S>(p: Omit<LinesProtocol<S>, "kind">): LinesProtocol<S> {
  return { kind: "lines", ...p };
}

/**
 * Validates a loaded adapter; throws a readable message on failure. Without zod's JIT: an od
 * validates each adapter once, and compiling a parser for it costs more than the parse it speeds up.
 */
export function validateAdapter(value: unknown): Adapter {
  const result = AdapterSchema.safeParse(value, { jitless: true });
  if (!result.success) throw new Error(z.prettifyError(result.error));
  return result.data as Adapter;
}

/** The environment variable that overrides an adapter's executable. */
export function binOverrideVar(adapter: Pick<Adapter, "id" | "envOverride">): string {
  return adapter.envOverride ?? `${adapter.id.toUpperCase().replaceAll("-", "_")}_BIN`;
}
