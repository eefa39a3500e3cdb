import { arr, asRecord, type OdEventBody, pathsIn, type ToolFacts, todoPlan } from "../../src/plugin.ts";

/** What Codex's items say besides their text: what a tool-like item does, and the agent's plan. */

type Rec = Record<string, unknown>;

/**
 * What each of Codex's tool-like items is: a command runs, a file change edits the files its
 * changes name, a web search fetches, a collaboration tool (a sub-agent) thinks, an MCP tool's is
 * unknown. Codex says it by the item's type, not by a tool name.
 */
export function codexFacts(item: Rec): ToolFacts {
  switch (item.type) {
    case "command_execution":
      return { kind: "execute" };
    case "file_change": {
      const paths = pathsIn({ paths: arr(item.changes).map((c) => asRecord(c)?.path) }, ["paths"]);
      return paths.length ? { kind: "edit", paths } : { kind: "edit" };
    }
    case "web_search":
      return { kind: "fetch" };
    case "collab_tool_call":
      return { kind: "think" };
    default:
      return { kind: "other" };
  }
}

/** The agent's plan (`items: [{text, completed}]`, whole on every update): shown when it changed. */
export function codexPlan(state: { plan?: string }, it: Rec): OdEventBody[] {
  const entries = todoPlan(it.items);
  const json = JSON.stringify(entries);
  if (json === state.plan) return [];
  state.plan = json;
  return [{ type: "plan", entries }];
}
