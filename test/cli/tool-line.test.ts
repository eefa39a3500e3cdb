/**
 * Tool calls in words, from the calls agents really make: each row names a reviewed golden of
 * test/fixtures (Claude, Codex, Gemini, pi, opencode, Copilot, Cursor, Devin and ACP shapes) and
 * a call in it, and gives the two lines `od run` shows for that call and its result.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { toolCallLine, toolResultLine } from "../../src/cli/tool-line.ts";
import type { OdEvent } from "../../src/core/contract/events.ts";
import { FIXTURES } from "../helpers.ts";

/** The fixtures' runs happened in /work/project. */
const CWD = "/work/project";

function fromFixture(file: string, id: string) {
  const golden = JSON.parse(readFileSync(join(FIXTURES, file), "utf8"));
  const events = (Array.isArray(golden) ? golden : golden.events) as OdEvent[];
  const call = events.find((e): e is Extract<OdEvent, { type: "tool.call" }> => e.type === "tool.call" && e.id === id);
  const result = events.find((e): e is Extract<OdEvent, { type: "tool.result" }> => e.type === "tool.result" && e.id === id);
  if (!call || !result) throw new Error(`${file} has no tool call ${id} with a result`);
  return { call, result };
}

const FROM_FIXTURES: Array<[file: string, id: string, call: string, result: string]> = [
  ["claude/tool.golden.json", "call_mx291gjm0001", "✎ Write hello.txt", "✓ wrote hello.txt"],
  ["claude/subagent.golden.json", "toolu_task_1", "✻ Task Survey the tests", "✓ Two test files: a.test.ts and b.test.ts."],
  ["claude/subagent.golden.json", "toolu_sub_read", "⌕ Read test", "✓ 2 lines"],
  [
    "claude/permission-denied.golden.json",
    "call_mx28nyha0001",
    "✎ Write hello.txt",
    "✗ Cannot write to /work/project/hello.txt while in plan mode.",
  ],
  ["claude-acp/status-only-update.golden.json", "call_read0001", "⌕ Read notes.txt", "✓ 1 line"],
  ["codex/tool.golden.json", "item_0", "✎ apply_patch hello.txt", "✓ wrote hello.txt"],
  ["codex/two-messages.golden.json", "item_1", "$ ls", "✓ hello.txt"],
  ["codex/web-search.golden.json", "item_0", '⇣ web_search "bun 1.4 release notes"', "✓ done"],
  ["pi/tool.golden.json", "call_mx28p0yn0002", "✎ write hello.txt", "✓ wrote hello.txt"],
  ["gemini/tool.golden.json", "write_file__call_mx29ki0w0001", "✎ write_file hello.txt", "✓ wrote hello.txt"],
  [
    "qwen/tool-failed.golden.json",
    "call_mx29ly8q0001",
    "✎ write_file hello.txt",
    "✗ Path is a directory, not a file: /work/project/hello.txt",
  ],
  ["opencode/tool-reprinted.golden.json", "call_mx29l0iq0008", "✎ write hello.txt", "✓ wrote hello.txt"],
  ["copilot/tool.golden.json", "call_mx29s6r10002", "✎ create hello.txt", "✓ wrote hello.txt"],
  ["cursor-agent/tool-failed.golden.json", "call_sh_1", "$ cat missing.txt", "✗ cat: missing.txt: No such file or directory"],
  ["qoder/tool-failed.golden.json", "call_q_bash_1", "$ cat missing.txt", "✗ cat: missing.txt: No such file or directory"],
  ["devin/shell-denied.golden.json", "call_7d1e#a01", "$ npm test", "✗ Denied by od: edit mode denies running commands"],
  ["devin/read-only-ask.golden.json", "call_7d1e#a03", "⌕ Read README.md", "✓ done"],
  ["gemini-acp/tool-permission.golden.json", "write_file__call_mx2a8e8s0002", "✎ Writing to hello.txt", "✓ wrote hello.txt"],
  ["codex-acp/tool.golden.json", "call_mx2alcog0001", "✎ Editing files hello.txt", "✓ edited hello.txt"],
  [
    "droid/edit-denies-shell.golden.json",
    "call_mx4xbgmx0001",
    "$ printf hi > denied.txt",
    "✗ Error: Tool Execute is not permitted in this exec session. Available tools: Read, LS, Edit, Grep, Glob, Create, WebSearch, FetchUrl, slack_post_file, Generat…",
  ],
];

describe("tool calls in words", () => {
  for (const [file, id, callLine, resultLine] of FROM_FIXTURES)
    test(`${file} ${id}`, () => {
      const { call, result } = fromFixture(file, id);
      expect(toolCallLine(call, CWD)).toBe(callLine);
      expect(toolResultLine(call, result, CWD)).toBe(resultLine);
    });

  // Claude Code's documented search and fetch tools: no fixture of ours calls them.
  test("search and fetch, as Claude Code names them", () => {
    const rows: Array<[string, unknown, string]> = [
      ["Grep", { pattern: "foo", path: "/work/project/src" }, '⌕ Grep "foo" in src'],
      ["Glob", { pattern: "**/*.ts" }, '⌕ Glob "**/*.ts"'],
      ["WebFetch", { url: "https://bun.sh/docs", prompt: "what is new" }, "⇣ WebFetch https://bun.sh/docs"],
      ["TodoWrite", { todos: [{ content: "a" }] }, "✻ TodoWrite"],
      ["Bash", { command: ["bash", "-lc", "npm test"] }, "$ npm test"],
      ["shell", { command: "/bin/bash -lc 'npm run build'" }, "$ npm run build"],
    ];
    for (const [name, input, line] of rows) expect(toolCallLine({ name, input }, CWD)).toBe(line);
  });

  test("kind and paths, when the event has them, say more than the name", () => {
    const call = { name: "Running tool", input: { title: "Running tool" }, kind: "read", paths: ["/work/project/src/a.ts"] };
    expect(toolCallLine(call, CWD)).toBe("⌕ Running tool src/a.ts");
    expect(toolCallLine({ name: "npm test", input: { title: "npm test" }, kind: "execute" }, CWD)).toBe("$ npm test");
    expect(toolCallLine({ name: "x", input: {}, kind: "edit", paths: ["/work/project/a.txt", "/work/project/b.txt"] }, CWD)).toBe(
      "✎ x a.txt (+1 more)",
    );
    expect(
      toolResultLine({ name: "x", input: {}, kind: "edit", paths: ["/work/project/a.txt"] }, { output: "", isError: false }, CWD),
    ).toBe("✓ edited a.txt");
  });

  test("a failed command names its exit status when its output does", () => {
    const call = { name: "Bash", input: { command: "npm test" } };
    expect(toolResultLine(call, { output: "Exit code 1\nnpm ERR! missing script: test\n", isError: true })).toBe(
      "✗ exit 1: npm ERR! missing script: test",
    );
    expect(toolResultLine(call, { output: "", isError: true })).toBe("✗ failed");
  });
});
