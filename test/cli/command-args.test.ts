import { describe, expect, test } from "bun:test";
import { types } from "node:util";
import { runCommand } from "citty";
import { odCommand } from "../../src/cli/command.ts";

const def = {
  "dry-run": { type: "boolean" },
  "max-turns": { type: "string" },
  model: { type: "string", alias: "m" },
  prompt: { type: "positional", required: false },
} as const;

/** What a command's body is given for `rawArgs`. */
async function given(rawArgs: string[]): Promise<Record<string, unknown>> {
  let seen: Record<string, unknown> = {};
  await runCommand(odCommand({ meta: { name: "t" }, args: def, run: ({ args }) => void (seen = args) }), { rawArgs });
  return seen;
}

describe("odCommand's args", () => {
  test("are a plain object: reading an option not given costs no name conversion (citty's Proxy did one per read)", async () => {
    expect(types.isProxy(await given(["hi"]))).toBe(false);
  });

  test("answer every spelling citty accepts, as citty's Proxy did", async () => {
    const a = await given(["--dryRun", "--max-turns", "3", "-m", "opus", "hi"]);
    expect([a["dry-run"], a.dryRun, a["max-turns"], a.maxTurns, a.model, a.m, a.prompt]).toEqual([
      true,
      true,
      "3",
      "3",
      "opus",
      "opus",
      "hi",
    ]);
    const b = await given(["--dry-run", "--maxTurns=4", "hi"]);
    expect([b["dry-run"], b.dryRun, b["max-turns"], b.maxTurns, b.model]).toEqual([true, true, "4", "4", undefined]);
  });
});
