/**
 * Each CLI family's own tool names, to what od says of a call: its kind and the files it acts on.
 * One row per tool that matters, from the CLI's own names (and its own input keys for files).
 */
import { describe, expect, test } from "bun:test";
import { ampTools } from "../../plugins/amp/parse.ts";
import { codexFacts } from "../../plugins/codex/items.ts";
import { copilotTools } from "../../plugins/copilot/parse.ts";
import { cursorTools } from "../../plugins/cursor-agent/parse.ts";
import { droidTools } from "../../plugins/droid/parse.ts";
import { geminiTools } from "../../plugins/gemini.ts";
import { kimiTools } from "../../plugins/kimi/parse.ts";
import { lettaTools } from "../../plugins/letta/parse.ts";
import { opencodeTools } from "../../plugins/opencode/parse.ts";
import { qwenTools } from "../../plugins/qwen/parse.ts";
import { claudeTools } from "../../src/core/protocols/claude-tools.ts";
import { piTools } from "../../src/core/protocols/pi-tools.ts";
import type { ToolDescriber } from "../../src/core/protocols/tool-facts.ts";

type Row = [name: string, input: Record<string, unknown>, kind: string, paths?: string[]];

const FAMILIES: Array<[string, ToolDescriber, Row[]]> = [
  [
    "Claude Code (and CodeBuddy, Qoder: the stream-json default)",
    claudeTools,
    [
      ["Read", { file_path: "/w/a.ts" }, "read", ["/w/a.ts"]],
      ["Write", { file_path: "a.ts", content: "x" }, "edit", ["a.ts"]],
      ["Edit", { file_path: "a.ts" }, "edit", ["a.ts"]],
      ["MultiEdit", { file_path: "a.ts", edits: [] }, "edit", ["a.ts"]],
      ["NotebookEdit", { notebook_path: "n.ipynb" }, "edit", ["n.ipynb"]],
      ["Bash", { command: "ls" }, "execute"],
      ["Grep", { pattern: "x", path: "src" }, "search", ["src"]],
      ["Glob", { pattern: "*.ts" }, "search"],
      ["WebFetch", { url: "https://x" }, "fetch"],
      ["WebSearch", { query: "x" }, "fetch"],
      ["Task", { description: "explore" }, "think"],
      ["TodoWrite", { todos: [] }, "think"],
      ["ExitPlanMode", { plan: "x" }, "other"],
      ["mcp__github__create_issue", { path: "x" }, "other"],
    ],
  ],
  [
    "Qwen Code",
    qwenTools,
    [
      ["read_file", { absolute_path: "/w/a.ts" }, "read", ["/w/a.ts"]],
      ["read_many_files", { paths: ["a", "b"] }, "read", ["a", "b"]],
      ["write_file", { file_path: "/w/hello.txt" }, "edit", ["/w/hello.txt"]],
      ["edit", { file_path: "a" }, "edit", ["a"]],
      ["run_shell_command", { command: "ls" }, "execute"],
      ["grep_search", { pattern: "x", path: "src" }, "search", ["src"]],
      ["web_fetch", { url: "u" }, "fetch"],
      ["todo_write", { todos: [] }, "think"],
    ],
  ],
  [
    "Gemini CLI",
    geminiTools,
    [
      ["read_file", { file_path: "a.ts" }, "read", ["a.ts"]],
      ["read_file", { absolute_path: "/w/a.ts" }, "read", ["/w/a.ts"]],
      ["write_file", { file_path: "hello.txt" }, "edit", ["hello.txt"]],
      ["replace", { file_path: "a" }, "edit", ["a"]],
      ["run_shell_command", { command: "ls" }, "execute"],
      ["list_directory", { dir_path: "src" }, "search", ["src"]],
      ["google_web_search", { query: "x" }, "fetch"],
      ["write_todos", { todos: [] }, "think"],
    ],
  ],
  [
    "Amp",
    ampTools,
    [
      ["Read", { path: "/w/a" }, "read", ["/w/a"]],
      ["create_file", { path: "/w/hello.txt", content: "x" }, "edit", ["/w/hello.txt"]],
      ["edit_file", { path: "a" }, "edit", ["a"]],
      ["Bash", { cmd: "ls" }, "execute"],
      ["read_web_page", { url: "u" }, "fetch"],
      ["todo_write", { todos: [] }, "think"],
    ],
  ],
  [
    "Copilot CLI",
    copilotTools,
    [
      ["view", { path: "/w/a" }, "read", ["/w/a"]],
      ["create", { path: "/w/hello.txt", file_text: "x" }, "edit", ["/w/hello.txt"]],
      ["edit", { path: "a" }, "edit", ["a"]],
      ["bash", { command: "ls" }, "execute"],
      ["grep", { pattern: "x", path: "src" }, "search", ["src"]],
      ["web_fetch", { url: "u" }, "fetch"],
    ],
  ],
  [
    "Cursor Agent (the call's key without ToolCall)",
    cursorTools,
    [
      ["read", { path: "/w/a" }, "read", ["/w/a"]],
      ["edit", { path: "a" }, "edit", ["a"]],
      ["delete", { path: "a" }, "edit", ["a"]],
      ["shell", { command: "ls" }, "execute"],
      ["ls", { path: "/work/project", ignore: [] }, "search", ["/work/project"]],
      ["updateTodos", { todos: [] }, "think"],
    ],
  ],
  [
    "Droid",
    droidTools,
    [
      ["Read", { file_path: "a" }, "read", ["a"]],
      ["Create", { file_path: "/w/OD.txt", content: "x" }, "edit", ["/w/OD.txt"]],
      ["Execute", { command: "ls", riskLevel: "low" }, "execute"],
      ["LS", { directory_path: "src" }, "search", ["src"]],
      ["FetchUrl", { url: "u" }, "fetch"],
    ],
  ],
  [
    "Kimi Code",
    kimiTools,
    [
      ["Write", { path: "hello.txt", content: "x" }, "edit", ["hello.txt"]],
      ["ReadFile", { path: "a" }, "read", ["a"]],
      ["StrReplaceFile", { path: "a" }, "edit", ["a"]],
      ["Shell", { command: "ls" }, "execute"],
      ["SearchWeb", { query: "x" }, "fetch"],
      ["SetTodoList", { todos: [] }, "think"],
    ],
  ],
  [
    "Letta Code",
    lettaTools,
    [
      ["Write", { file_path: "/w/hello.txt" }, "edit", ["/w/hello.txt"]],
      ["Bash", { command: "ls" }, "execute"],
      ["shell", { command: ["ls"] }, "execute"],
      ["update_plan", { plan: [] }, "think"],
    ],
  ],
  [
    "OpenCode",
    opencodeTools,
    [
      ["read", { filePath: "/w/a" }, "read", ["/w/a"]],
      ["write", { filePath: "/w/hello.txt", content: "x" }, "edit", ["/w/hello.txt"]],
      ["bash", { command: "ls" }, "execute"],
      ["list", { path: "src" }, "search", ["src"]],
      ["webfetch", { url: "u" }, "fetch"],
      ["todowrite", { todos: [] }, "think"],
      ["invalid", { tool: "write" }, "other"],
    ],
  ],
  [
    "pi",
    piTools,
    [
      ["read", { path: "a" }, "read", ["a"]],
      ["write", { path: "/w/hello.txt" }, "edit", ["/w/hello.txt"]],
      ["bash", { command: "ls" }, "execute"],
      ["find", { path: "src", pattern: "*.ts" }, "search", ["src"]],
    ],
  ],
];

describe("tool kinds, each CLI family by its own names", () => {
  for (const [family, describe_, rows] of FAMILIES)
    test(family, () => {
      const got = rows.map(([name, input]) => {
        const facts = describe_(name, input);
        return [name, facts.kind, facts.paths];
      });
      expect(got).toEqual(rows.map(([name, , kind, paths]) => [name, kind, paths]));
    });

  test("Codex: by the item's type, not a tool name; a file change's files from its changes", () => {
    const items = [
      { type: "command_execution", command: "ls" },
      { type: "file_change", changes: [{ path: "/w/a", kind: "add" }, { path: "/w/b" }, { kind: "delete" }] },
      { type: "file_change", changes: [] },
      { type: "web_search", query: "x" },
      { type: "collab_tool_call", tool: "spawn_agent" },
      { type: "mcp_tool_call", server: "s", tool: "t" },
    ];
    expect(items.map(codexFacts)).toEqual([
      { kind: "execute" },
      { kind: "edit", paths: ["/w/a", "/w/b"] },
      { kind: "edit" },
      { kind: "fetch" },
      { kind: "think" },
      { kind: "other" },
    ]);
  });
});
