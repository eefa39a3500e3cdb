/** `homePath`: the paths adapters declare for their files and folders, as a table (relative, absolute, `{VAR}`, `{VAR:-fallback}`). */
import { describe, expect, test } from "bun:test";
import { homePath } from "../../../src/core/agents/auth-on-disk.ts";

const HOME = "/home/u";
const SET = { CODEX_HOME: "/opt/codex", REL: "rel/dir", EMPTY: "" };

const cases: Array<[spec: string, env: Record<string, string>, expected: string | undefined]> = [
  [".claude/.credentials.json", {}, "/home/u/.claude/.credentials.json"],
  ["/etc/od/file", {}, "/etc/od/file"],
  ["{CODEX_HOME:-.codex}/auth.json", {}, "/home/u/.codex/auth.json"],
  ["{CODEX_HOME:-.codex}/auth.json", SET, "/opt/codex/auth.json"],
  ["{CODEX_HOME}/auth.json", {}, undefined],
  ["{CODEX_HOME}/auth.json", SET, "/opt/codex/auth.json"],
  ["{CODEX_HOME}", SET, "/opt/codex"],
  ["{REL}/x", SET, "/home/u/rel/dir/x"],
  ["{EMPTY:-.fallback}/x", SET, "/home/u/.fallback/x"], // set but empty: the fallback, as a shell's :- does
  ["{EMPTY}/x", SET, undefined],
  ["{NONE:-}/x", {}, undefined], // an empty fallback is no folder
  ["{NONE:-/abs/base}/x", {}, "/abs/base/x"],
  ["{NONE:-a:-b}/x", {}, "/home/u/a:-b/x"], // the first ":-" splits
  ["{not-a-name}/x", SET, "/home/u/{not-a-name}/x"], // not a variable: a path like any other
  ["{}/x", {}, "/home/u/{}/x"],
  ["{UNCLOSED/x", {}, "/home/u/{UNCLOSED/x"],
  ["{A_1:-.a}", { A_1: "/v" }, "/v"],
  ["{A_1}x/y", { A_1: "/v" }, "/v/x/y"], // what follows the brace is joined on
];

describe("homePath", () => {
  for (const [spec, env, expected] of cases)
    test(`${spec} with ${JSON.stringify(env)}`, () => {
      expect(homePath(spec, env, HOME)).toBe(expected);
    });
});
