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
  detail?: string;
  options?: string[];
  /** The protocol messages that answer the agent with a decision. */
  reply: (decision: Decision) => unknown[];
  /**
   * For an ask about a tool call: the events that show the call as denied (its `tool.call`, if the
   * agent has not shown it, and a `tool.result` that says why), so a denied call never vanishes.
   */
  denied?: (reason: string) => OdEventBody[];
}
