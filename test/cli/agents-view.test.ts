import { describe, expect, test } from "bun:test";
import { forPeople, gettingStarted, missingSummary, shownRows } from "../../src/cli/agents-view.ts";
import type { Detection } from "../../src/core/agents/detection.ts";

const d = (id: string, status: Detection["status"]): Detection => ({
  id,
  name: id,
  status,
  installed: status !== "missing",
  confident: true,
  auth: "unknown",
  models: [],
  modelSource: "none",
  efforts: [],
  problems: [],
});

const INSTALL: Record<string, string> = {
  claude: "npm install -g @anthropic-ai/claude-code",
  codex: "npm install -g @openai/codex",
  gemini: "npm install -g @google/gemini-cli",
  opencode: "npm install -g opencode-ai",
  "cursor-agent": "curl https://cursor.com/install -fsS | bash",
};

describe("od agents for people", () => {
  const many = [d("aider", "missing"), d("pi", "logged-out"), d("api", "ready"), d("claude", "missing"), d("amp", "ready")];

  test("ready first, then installed but not usable, then not installed; by id within each", () => {
    expect(forPeople(many).map((x) => x.id)).toEqual(["amp", "api", "pi", "aider", "claude"]);
  });

  test("the table shows what is there; --all every row", () => {
    expect(shownRows(many, false).map((x) => x.id)).toEqual(["amp", "api", "pi"]);
    expect(shownRows(many, true)).toHaveLength(5);
  });

  test("the agents left out are one line that says how to list them", () => {
    const table: Array<[Detection[], string | undefined]> = [
      [many, "2 more not installed: `od agents --all` lists them"],
      [[d("a", "missing"), d("b", "missing")], "2 agents not installed: `od agents --all` lists them"],
      [[d("api", "ready")], undefined],
    ];
    for (const [detections, line] of table) expect(missingSummary(detections, "od agents")).toBe(line);
  });

  test("with none ready: how to get one, the commands for this platform, on one screen", () => {
    const linux = gettingStarted((id) => INSTALL[id], "linux");
    expect(linux.length).toBeLessThan(12);
    expect(linux.join("\n")).toContain("claude  npm install -g @anthropic-ai/claude-code");
    expect(linux.join("\n")).toContain("export OD_API_BASE_URL=http://localhost:11434/v1");
    expect(linux.join("\n")).toContain("ANTHROPIC_API_KEY");
    // Three CLIs, the ones od prefers; a curl | bash installer is no Windows command.
    expect(linux.filter((l) => l.includes("npm install"))).toHaveLength(3);
    const windows = gettingStarted((id) => (id === "claude" ? INSTALL["cursor-agent"] : INSTALL[id]), "win32");
    expect(windows.join("\n")).not.toContain("| bash");
    expect(windows.join("\n")).toContain("set OD_API_BASE_URL=");
  });
});
