import type { LinesProtocol } from "../contract/adapter.ts";
import type { Mode, OdEventBody } from "../contract/events.ts";
import type { McpServer } from "../contract/mcp.ts";
import type { PermissionAsk } from "../contract/permissions.ts";
import type { ImageInput, ValidRequest } from "../contract/request.ts";

/** What a session driver knows about the run it drives: the request as validated (its prompt composed), and more. */
export interface DriverContext
  extends Pick<ValidRequest, "prompt" | "cwd" | "mode">,
    Partial<Pick<ValidRequest, "model" | "effort" | "resume">> {
  /** The adapter's name and login hint, for error messages. */
  agent: { name: string; login?: string };
  /** The mode whose session option the agent is put in, when a test lifts the CLI's own wall (OD_TEST_CLI_MODE); else `mode`. */
  sessionMode?: Mode;
  /** Images to send with the prompt, read (adapters with capabilities.images only). */
  images?: ImageInput[];
  /** MCP servers for the session (adapters with capabilities.mcpServers only): an ACP agent gets them in session/new and session/load. */
  mcpServers?: McpServer[];
  /** The adapter's options for its driver (protocol.options), e.g. how ACP makes the agent read-only. */
  options?: Record<string, unknown>;
}

/** The outcome of one record: events to emit, messages to send back, and whether the turn is over. */
export interface DriverStep {
  events: OdEventBody[];
  send?: unknown[];
  /** The agent finished its turn: close stdin and let the process exit. */
  done?: boolean;
  /** Permission requests: the pipeline emits them, decides (policy or an attached client), and sends each reply. */
  asks?: PermissionAsk[];
  /** The line was broken structured output (set by the pipeline's framing, not by drivers). */
  malformed?: boolean;
}

/**
 * A session driver: pure functions over an explicit state, so a whole RPC
 * exchange can be tested from a table of records without a process. The
 * pipeline owns the I/O: it writes `send` as JSON lines and feeds back records.
 * `receive` and `finish` may answer with a promise (a plugin's parser, answered
 * from its own thread: watched.ts); the pipeline awaits only those, so the
 * built-ins (SyncDriver) pay nothing per line for it.
 */
export interface Driver<S = any> {
  name: string;
  /** Initial state and the messages that open the session (e.g. the prompt). */
  start: (ctx: DriverContext) => { state: S; send: unknown[] };
  /** Must never throw (interpret.ts keeps the line raw if it does, or if its promise rejects). */
  receive: (record: unknown, state: S, line: string) => DriverStep | Promise<DriverStep>;
  /** The protocol's own abort, sent before any signal on cancel; empty when it has none. */
  abort: (state: S) => unknown[];
  /** Events to flush when stdout closes. */
  finish?: (state: S) => OdEventBody[] | Promise<OdEventBody[]>;
  /** The run is done with this state (it ended, or was dropped): free what it holds. Called once or more. */
  close?: (state: S) => void;
  /** Keep stdin open for the session (RPC) or close it at once (one-shot line streams). */
  keepStdinOpen: boolean;
  /** Lines are plain text, handed to `receive` as strings rather than parsed as JSON. */
  textLines?: boolean;
  /** A stage watchdog: no output for this long ends the run with a clear error. */
  idleTimeoutMs?: number;
}

/** A driver that answers every line at once, in od's thread: every built-in (their speed is benchmarked). */
export interface SyncDriver<S = any> extends Driver<S> {
  receive: (record: unknown, state: S, line: string) => DriverStep;
  finish?: (state: S) => OdEventBody[];
}

export function defineDriver<S>(driver: SyncDriver<S>): SyncDriver<S> {
  return driver;
}

/** A line protocol seen as a driver: nothing to send, never done early, no protocol abort. */
export function linesDriver<S>(protocol: LinesProtocol<S>): SyncDriver<S> {
  return {
    name: "lines",
    keepStdinOpen: false,
    textLines: protocol.format === "text",
    start: () => ({ state: protocol.createState(), send: [] }),
    receive: (record, state, line) => ({ events: protocol.parse(record, state, line) }),
    abort: () => [],
    finish: protocol.finish,
  };
}
