/** `unknownOption`: the first option a command does not define, as a table of argv against one command's args. */
import { describe, expect, test } from "bun:test";
import type { ArgsDef } from "citty";
import { unknownOption } from "../../src/cli/command.ts";

const ARGS = {
  agent: { type: "string", alias: "a" },
  "dry-run": { type: "boolean" },
  json: { type: "boolean" },
  mode: { type: "string" },
} satisfies ArgsDef;

const cases: Array<[argv: string[], unknown: string | undefined]> = [
  [["--agent", "claude", "hi"], undefined],
  [["-a", "claude", "--dry-run", "hi"], undefined],
  [["--dryRun", "--no-json", "--no-dry-run", "hi"], undefined], // citty's own spellings
  [["--help"], undefined],
  [["-h"], undefined],
  [["--mode=edit", "hi"], undefined],
  [["--modle", "opus", "hi"], "--modle"],
  [["--modle=opus", "hi"], "--modle"],
  [["-x", "hi"], "-x"],
  [["-abc", "hi"], undefined], // one dash and a word: a value (citty reads it so too)
  [["-", "--", "--anything"], undefined], // stdin, then everything after -- is the prompt's
  [["hi", "--", "--bogus"], undefined],
  [["-1", "--9lives", "---x", "--_x"], undefined], // numbers and what no option name begins with are values
  [["--no-mode"], "--no-mode"], // --no- only for a boolean
  [["--json", "--bogus-flag=1"], "--bogus-flag"],
  [["--a_b-c"], "--a_b-c"],
  [["prose with --bogus inside"], undefined],
];

describe("unknownOption", () => {
  for (const [argv, unknown] of cases)
    test(JSON.stringify(argv), () => {
      expect(unknownOption(argv, ARGS)).toBe(unknown);
    });
});
