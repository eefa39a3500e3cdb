import type { OdEventBody } from "../contract/events.ts";
import type { ApiConfig } from "./config.ts";
import type { Block, Message } from "./conversation.ts";

/** Token figures of one model request, as the provider reported them. */
export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  cacheRead?: number;
  cacheWrite?: number;
  reasoningTokens?: number;
  costUsd?: number;
}

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the input object. */
  schema: Record<string, unknown>;
}

export interface TurnRequest {
  model: string;
  system: string;
  messages: Message[];
  tools: ToolSpec[];
  /** 1-based; ids of streamed parts are unique per turn. */
  turn: number;
}

export interface TurnResult {
  content: Block[];
  usage: Usage;
  stopReason?: string;
}

export interface ClientContext {
  config: ApiConfig;
  signal: AbortSignal;
  note: (line: string) => void;
}

/**
 * One streaming model request: yields text.delta, thinking.delta, tool.call
 * (once its input is complete) and retry status events, and returns the
 * assistant's message. Throws an OdError on failure.
 */
export type Client = (req: TurnRequest, ctx: ClientContext) => AsyncGenerator<OdEventBody, TurnResult>;
