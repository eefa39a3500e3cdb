import { describe, expect, test } from "bun:test";
import { closest, didYouMean, editDistance } from "../../src/core/os/suggest.ts";

const LISTS = {
  commands: ["run", "agents", "models", "doctor", "init", "plugins", "skills", "serve"],
  agents: ["aider", "amp", "claude", "claude-acp", "codex", "codex-acp", "gemini", "gemini-acp", "pi", "qwen", "qwen-acp"],
  flags: ["agent", "model", "effort", "cwd", "mode", "resume", "timeout", "json", "dry-run", "max-turns"],
};
const { commands: COMMANDS, agents: AGENTS } = LISTS;

describe("editDistance", () => {
  test.each([
    ["", "", 0],
    ["run", "run", 0],
    ["", "abc", 3],
    ["rnu", "run", 1], // a swap is one edit
    ["cluade", "claude", 1],
    ["agnet", "agent", 1],
    ["modle", "model", 1],
    ["kitten", "sitting", 3],
    ["serv", "serve", 1],
  ] as const)("%p → %p: %p", (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
});

describe("closest", () => {
  test.each([
    ["rnu", "commands", "run"],
    ["agnets", "commands", "agents"],
    ["doctr", "commands", "doctor"],
    ["serv", "commands", "serve"], // the one command it begins
    ["Run", "commands", "run"], // case aside
    ["cluade", "agents", "claude"],
    ["claud", "agents", "claude"], // before claude-acp: the closer one
    ["gemni", "agents", "gemini"],
    ["qwen-apc", "agents", "qwen-acp"],
    ["agnet", "flags", "agent"],
    ["modle", "flags", "model"],
    ["dryrun", "flags", "dry-run"],
    ["timout", "flags", "timeout"],
  ] as const)("%p among the %s: %p", (word, list, expected) => {
    expect(closest(word, LISTS[list])).toBe(expected);
  });

  test.each([
    ["xyz", "commands"], // nothing alike
    ["bogus", "commands"],
    ["", "commands"],
    ["x", "agents"], // one letter is no word to guess from
    ["co", "agents"], // begins codex and codex-acp: no one guess
    ["openai", "agents"],
  ] as const)("%p among the %s: none", (word, list) => {
    expect(closest(word, LISTS[list])).toBeUndefined();
  });
});

test("didYouMean leads a hint, or says nothing", () => {
  expect(didYouMean("cluade", AGENTS)).toBe('Did you mean "claude"? ');
  expect(didYouMean("rnu", COMMANDS, (c) => `\`od ${c}\``)).toBe("Did you mean `od run`? ");
  expect(didYouMean("bogus", COMMANDS)).toBe("");
});
