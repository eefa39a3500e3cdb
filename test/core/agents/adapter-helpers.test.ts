/** The plugin API's small helpers for an adapter's `invoke` and facts, from tables. */
import { describe, expect, test } from "bun:test";
import { flag, parseVersion } from "../../../src/core/agents/adapter-helpers.ts";

const flags: Array<[string, string | number | undefined, string[]]> = [
  // value, argv
  ["a model", "sonnet", ["--x", "sonnet"]],
  ["no model (the default)", undefined, []],
  ["an empty list joined", "", []],
  ["a turn cap", 3, ["--x", "3"]],
  ["zero is a value", 0, ["--x", "0"]],
  ["a value with spaces stays one argument", "a b", ["--x", "a b"]],
];

describe("flag", () => {
  for (const [what, value, argv] of flags) test(what, () => expect(flag("--x", value)).toEqual(argv));
  test("an empty list of tools passes no flag", () => expect(flag("--allowedTools", ([] as string[]).join(","))).toEqual([]));
});

// What the CLIs print for `--version` (quoted in their adapters), and the version read from it.
const versions: Array<[string, string | undefined]> = [
  ["0.36.0 (commit 7c61e5bb)", "0.36.0"],
  ["@agentclientprotocol/codex-acp 2.6.0", "2.6.0"],
  ["reasonix v1.38.11", "1.38.11"],
  ["devin 2026.5.1-1", "2026.5.1-1"],
  ["kiro-cli 1.25.0\n", "1.25.0"],
  ["OpenClaw 2026.9.6 (eb377ac)", "2026.9.6"],
  ["1.0.0-beta.3+build", "1.0.0-beta.3"],
  ["version 12", undefined],
  ["", undefined],
];

describe("parseVersion", () => {
  for (const [output, version] of versions) test(JSON.stringify(output), () => expect(parseVersion(output)).toBe(version as string));
});
