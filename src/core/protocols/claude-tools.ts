/**
 * Claude Code's tools (its stream-json `tool_use` names), by what they do: the table every CLI that
 * speaks Claude Code's stream-json uses unless it names its tools its own way (claude-stream.ts's
 * `tools` option). Kinds as Claude's own ACP bridge gives them (@zed-industries/claude-code-acp):
 * Task and TodoWrite are thinking, web search is fetching; ExitPlanMode (a mode switch) is other.
 */
import { type ToolDescriber, todosAt, toolTable } from "./tool-facts.ts";

const FILE = ["file_path"];
const NOTEBOOK = ["notebook_path"];
const FOLDER = ["path"];

export const claudeTools: ToolDescriber = toolTable({
  Read: { kind: "read", paths: FILE },
  NotebookRead: { kind: "read", paths: NOTEBOOK },
  Write: { kind: "edit", paths: FILE },
  Edit: { kind: "edit", paths: FILE },
  MultiEdit: { kind: "edit", paths: FILE },
  NotebookEdit: { kind: "edit", paths: NOTEBOOK },
  Bash: { kind: "execute" },
  BashOutput: { kind: "execute" },
  KillShell: { kind: "execute" },
  KillBash: { kind: "execute" },
  PowerShell: { kind: "execute" },
  Grep: { kind: "search", paths: FOLDER },
  Glob: { kind: "search", paths: FOLDER },
  LS: { kind: "search", paths: FOLDER },
  WebFetch: { kind: "fetch" },
  WebSearch: { kind: "fetch" },
  Task: { kind: "think" },
  Agent: { kind: "think" },
  TodoWrite: { kind: "think", plan: todosAt() },
  // The task list tools of later versions: each call changes one task, so none of them is the whole plan.
  TaskCreate: { kind: "think" },
  TaskUpdate: { kind: "think" },
  TaskList: { kind: "think" },
  TaskGet: { kind: "think" },
});
