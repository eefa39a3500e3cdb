// Shared types of the loopback model stub (see ../model-stub.ts).

/** Which wire API a request used; "other" covers HEAD /, GET /v1/models and unknown paths. */
export type ApiKind = "anthropic" | "openai-chat" | "openai-responses" | "gemini" | "other";

/** What the stub should answer. Set per test with `stub.script(...)`. */
export type Scenario =
  | { kind: "chat"; text?: string }
  | { kind: "tool-write"; file: string; content: string; finalText?: string }
  | { kind: "thinking"; thinking?: string; text?: string }
  | { kind: "stall" }
  | { kind: "auth-error"; message?: string }
  | { kind: "slow"; text?: string; delayMs?: number }
  /** Request n (counted by the assistant messages it carries) gets steps[n]; the last step repeats. */
  | { kind: "script"; steps: ScriptStep[] }
  /** The next `times` requests (default: all) fail with `status` and these headers; then `then` (default chat) answers. */
  | { kind: "http-error"; status: number; times?: number; retryAfter?: string; retryAfterMs?: number; message?: string; then?: Scenario };

/** One scripted answer: text (with optional thinking), or tool calls (several are sent in parallel where the API allows). */
export type ScriptStep = { text: string; thinking?: string } | { tools: Array<{ name: string; args: Record<string, unknown> }> };

/** An HTTP failure the stub answers instead of a model reply. */
export interface HttpFailure {
  status: number;
  message: string;
  headers: Record<string, string>;
}

/** A tool as offered in a request: its name and the property names of its argument schema. */
export interface ToolSpec {
  name: string;
  params: string[];
  /** A custom tool that takes free text instead of JSON arguments (codex's `apply_patch`). */
  freeform?: boolean;
}

/** The API-independent view of one model request, produced by each API's `parse`. */
export interface Turn {
  model?: string;
  stream: boolean;
  lastUserText?: string;
  tools: ToolSpec[];
  /** True when the conversation ends with a tool result (the model must now finish). */
  hasToolResult: boolean;
  effort?: string;
  reasoning?: unknown;
  thinking?: unknown;
  /** OpenAI chat: stream_options.include_usage was set. */
  includeUsage?: boolean;
  /** The request asks for JSON output (Gemini's model router): a side request, not the agent's turn. */
  structured?: boolean;
  /** Assistant messages in the conversation so far (anthropic, openai-chat, gemini): the step of a script. */
  assistantTurns?: number;
}

/** The stub's decision for one request, rendered by each API in its own wire shape. */
export type Reply =
  | { kind: "text"; chunks: string[]; thinking: string[]; delayMs: number }
  | {
      kind: "tool";
      id: string;
      name: string;
      args: Record<string, unknown>;
      input?: string;
      more?: Array<{ id: string; name: string; args: Record<string, unknown> }>;
    }
  | { kind: "stall" }
  /** Each API answers with its own real wording for a rejected key unless the scenario names a message. */
  | { kind: "auth-error"; message?: string };

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** Lower-cased header names; values of auth headers are redacted. */
  headers: Record<string, string>;
  /** Parsed JSON body (raw text if it did not parse, undefined if empty). */
  body: unknown;
  api: ApiKind;
  model?: string;
  stream?: boolean;
  effort?: string;
  reasoning?: unknown;
  thinking?: unknown;
  lastUserText?: string;
  toolNames: string[];
  hasToolResult?: boolean;
  /** Short summary of the answer: "text", "tool:Write", "stall", "auth-error", "404"... */
  answered?: string;
  at: number;
}

export interface ModelStubOptions {
  /** Scenario used until `script()` is called. Default `{ kind: "chat" }`. */
  scenario?: Scenario;
  /** Fixed port; default 0 (any free port). */
  port?: number;
  /** The ids GET /v1/models lists; default ["stub-model"]. */
  models?: string[];
}

export interface ModelStub {
  url: string;
  port: number;
  requests: RecordedRequest[];
  script(s: Scenario): void;
  stop(): Promise<void>;
}

/** Per-request context handed to the API renderers. */
export interface StreamCtx {
  /** Resolves when the client disconnects or the stub stops; used to end stalls and pauses. */
  done: Promise<void>;
  isDone(): boolean;
  /** Called by a stream when it finished by itself. */
  finish(): void;
}
