/**
 * What the page offers a user with no agent ready (src/server/setup.ts): the agents to install with
 * the commands that do it on the server's platform, the well-known ones first; GET /api/agents carries it.
 */
import { describe, expect, test } from "bun:test";
import { installHints } from "../../src/server/setup.ts";
import { tmpdir } from "../helpers.ts";
import { testApp } from "./support.ts";

const agent = (id: string, install: string, installed = false) => ({ id, name: id.toUpperCase(), installed, install });
const AGENTS = [
  agent("aider", "python -m pip install aider-install && aider-install"),
  agent("claude", "npm install -g @anthropic-ai/claude-code"),
  agent("cursor-agent", "curl https://cursor.com/install -fsS | bash"),
  agent("codex", "npm install -g @openai/codex", true),
  agent("gemini", "npm install -g @google/gemini-cli"),
];

describe("install hints", () => {
  test("the agents not installed, the well-known first; a shell pipe is left out on Windows", () => {
    const linux = installHints(AGENTS, "linux");
    expect(linux.map((h) => [h.id, h.featured])).toEqual([
      ["claude", true],
      ["gemini", true],
      ["cursor-agent", true],
      ["aider", false],
    ]);
    expect(linux[0]).toEqual({ id: "claude", name: "CLAUDE", command: "npm install -g @anthropic-ai/claude-code", featured: true });
    expect(installHints(AGENTS, "win32").map((h) => h.id)).toEqual(["claude", "gemini", "aider"]);
  });

  test("GET /api/agents says the server's platform and what to install there", async () => {
    await using tmp = tmpdir();
    const { request } = testApp(tmp.path, []);
    const body = (await (await request("/api/agents")).json()) as { platform: string; install: Array<{ id: string }> };
    expect(body.platform).toBe(process.platform);
    expect(body.install.map((h) => h.id)).toEqual(["fake-acp"]); // fake is installed; fake-acp is not
  });
});
