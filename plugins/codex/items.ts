import { arr, asRecord, type OdEventBody, type ToolFacts, todoPlan } from "../../src/plugin.ts";

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
      // Each change's path, once, in order (as pathsIn reads a list), without a list of them made first.
      const paths: string[] = [];
      for (const c of arr(item.changes)) {
        const path = asRecord(c)?.path;
        if (typeof path === "string" && path && !paths.includes(path)) paths.push(path);
      }
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
