import { describe, expect, test } from "bun:test";
import { validateAdapter } from "../../src/core/contract/adapter.ts";
import { defineAdapter, defineLinesProtocol } from "../../src/plugin.ts";
import { stateProblems } from "./conformance.ts";

/** A minimal line adapter with the given state. */
function withState(state: string[]) {
  return validateAdapter(
    defineAdapter({
      id: "fake-state",
      name: "Fake State Agent",
      install: "nothing to install",
      bin: "fake-state",
      state,
      capabilities: { streaming: true, resume: false, readOnly: false },
      prompt: { via: "stdin" },
      invoke: (ctx) => ({ argv: [], stdin: ctx.prompt }),
      protocol: defineLinesProtocol({ createState: () => ({}), parse: () => [] }),
    }),
  );
}

describe("the conformance check of an adapter's state", () => {
  test.each([
    ["its own folders and files", [".tool/", "{TOOL_HOME:-.tool}/", "{XDG_CONFIG_HOME:-.config}/tool/", ".tool.json", "{TOOL_CACHE}/"], []],
    ["nothing at all", [], ["declares no state"]],
    ["HOME itself", ["{TOOL_HOME:-.}/"], ["shared with other programs"]],
    ["a shared folder whole", [".config/"], ["shared with other programs"]],
    ["a shared folder by its variable", ["{XDG_CACHE_HOME:-.cache/tool}/"], ["shared with other programs"]],
    ["the temp folder", ["/tmp"], ["shared with other programs"]],
    ["the root", ["/"], ["shared with other programs"]],
    ["npm's cache", [".npm/"], ["shared with other programs"]],
    ["a malformed variable", ["{TOOL_HOME:-.tool/"], ["is not a path"]],
  ] as const)("%s", (_name, state, problems) => {
    const found = stateProblems(withState([...state]));
    expect(found).toHaveLength(problems.length);
    problems.forEach((p, i) => expect(found[i]).toContain(p));
  });
});
