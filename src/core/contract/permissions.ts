import type { OdEventBody } from "./events.ts";

/** What an agent wants to do, as far as its request says. */
export type ActionKind = "read" | "edit" | "execute" | "other";
export type Decision = "allow" | "deny";

/** An agent's request for permission, as a driver hands it to the pipeline. */
export interface PermissionAsk {
  id: string;
  /** What the agent calls the action ("Write index.html", "pi extension confirm"). */
  tool: string;
  kind: ActionKind;
  /** Paths the action touches, when the request names them. */
  paths?: string[];
  /** The action is an MCP server's tool: od cannot tell what it does, so read-only mode never allows it. */
  mcp?: boolean;
  /** A short text of what the agent asks (for the event and a terminal). */
  detail?: string;
  /**
   * For an ask about a tool call: the call's id as od shows it (its `tool.call` event's id), so a
   * surface can put the question on the call it already shows.
   */
  toolCallId?: string;
  /** The action's input as the agent gave it (a tool call's arguments, usually an object), whole. */
  input?: unknown;
  options?: string[];
  /** The protocol messages that answer the agent with a decision. */
  reply: (decision: Decision) => unknown[];
  /**
   * For an ask about a tool call: the events that show the call as denied (its `tool.call`, if the
   * agent has not shown it, and a `tool.result` that says why), so a denied call never vanishes.
   */
  denied?: (reason: string) => OdEventBody[];
}
