import { describe, expect, test } from "bun:test";
import { createTextRenderer } from "../../src/cli/render.ts";
import type { OdEvent, OdEventBody } from "../../src/core/contract/events.ts";

/** The stdout and stderr of `od run` for these bodies. */
function render(bodies: OdEventBody[]) {
  let out = "";
  let err = "";
  const r = createTextRenderer({ write: (s: string) => (out += s) }, { write: (s: string) => (err += s) });
  bodies.forEach((b, seq) => r({ ...b, runId: "r", seq, ts: 0 } as OdEvent));
  return { out, err };
}

describe("the answer on the terminal", () => {
  test("separate messages are not glued together: a new part id starts a new paragraph", () => {
    const { out } = render([
      { type: "text.delta", id: "item_0", text: "Let me check." },
      { type: "text.delta", id: "item_1", text: "Done!" },
    ]);
    expect(out).toBe("Let me check.\n\nDone!");
  });

  test("one streamed message stays one paragraph", () => {
    const { out } = render([
      { type: "text.delta", id: "m1:0", text: "Hel" },
      { type: "text.delta", id: "m1:0", text: "lo" },
    ]);
    expect(out).toBe("Hello");
  });

  test("a tool call between two messages: the line its note ended counts toward the break", () => {
    const { out, err } = render([
      { type: "text.delta", id: "m1:0", text: "Let me check." },
      { type: "tool.call", id: "c1", name: "shell", input: { command: "ls" } },
      { type: "text.delta", id: "m2:0", text: "Done!\n" },
      { type: "text.delta", id: "m3:0", text: "More." },
    ]);
    expect(out).toBe("Let me check.\n\nDone!\n\nMore.");
    expect(err).toContain("$ ls");
  });

  test("a sub-agent's words are not a part of the answer", () => {
    const { out } = render([
      { type: "text.delta", id: "m1:0", text: "Asking a helper." },
      { type: "text.delta", id: "s1", text: "helper text", parent: "t1" },
      { type: "text.delta", id: "m1:0", text: " Still the same message." },
    ]);
    expect(out).toBe("Asking a helper.\n Still the same message.");
  });
});

describe("a plan on the terminal", () => {
  test("a checklist on stderr, never in the answer; a sub-agent's indented under its call", () => {
    const { out, err } = render([
      {
        type: "plan",
        entries: [
          { content: "read the code", status: "completed" },
          { content: "write the test", status: "in_progress" },
          { content: "ship", status: "pending" },
        ],
      },
      { type: "plan", entries: [{ content: "look around", status: "pending" }], parent: "task-1" },
    ]);
    expect(out).toBe("");
    expect(err).toBe(
      [
        "· plan (1/3 done)",
        "    [x] read the code",
        "    [>] write the test",
        "    [ ] ship",
        "  ↳ plan (0/1 done)",
        "      [ ] look around",
        "",
      ].join("\n"),
    );
  });
});

describe("tool calls on the terminal", () => {
  test("in words, each with one line for its result, paths from the run's folder, a sub-agent's indented", () => {
    const { out, err } = render([
      { type: "run.started", agent: "claude", bin: "claude", argv: [], cwd: "/work/project", mode: "edit" },
      { type: "tool.call", id: "c1", name: "Write", input: { file_path: "/work/project/hello.txt", content: "hi\n" } },
      { type: "tool.result", id: "c1", output: "File created successfully at: /work/project/hello.txt", isError: false },
      { type: "tool.call", id: "c2", name: "Bash", input: { command: "npm test" } },
      { type: "tool.result", id: "c2", output: "Exit code 1\nnpm ERR! missing script: test", isError: true },
      { type: "tool.call", id: "c3", name: "Read", input: { file_path: "/work/project/src/a.ts" }, parent: "t1" },
      { type: "tool.result", id: "c3", output: "a\nb\nc", isError: false, parent: "t1" },
    ]);
    expect(out).toBe("");
    expect(err.split("\n").slice(1, -1)).toEqual([
      "✎ Write hello.txt",
      "✓ wrote hello.txt",
      "$ npm test",
      "✗ exit 1: npm ERR! missing script: test",
      "  ↳ ⌕ Read src/a.ts",
      "  ↳ ✓ 3 lines",
    ]);
    expect(err).not.toContain("{");
  });
});
