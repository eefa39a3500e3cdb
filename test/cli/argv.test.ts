/**
 * od reads a command's argv without citty's runtime (src/cli/argv.ts): every answer here is held
 * to citty's own parseArgs on the same argv and definitions, for od's real commands and for the
 * corners of Node's tokenizer (short groups, inline values, --no-, "--", enums, defaults).
 */
import { describe, expect, test } from "bun:test";
import { types } from "node:util";
import { type ArgsDef, parseArgs } from "citty";
import { camel, kebab, parseCommandArgs } from "../../src/cli/argv.ts";
import { commands } from "../../src/cli/dispatch.ts";

/** What citty answers, as a plain object (its Proxy and its CLIError, minus colour), or the error's message. */
function citty(argv: string[], defs: ArgsDef): unknown {
  try {
    return { ...parseArgs(argv, defs) };
  } catch (err) {
    return (err as Error).message.replace(/\x1b\[\d+m/g, "");
  }
}

function ours(argv: string[], defs: ArgsDef): unknown {
  try {
    return parseCommandArgs(argv, defs);
  } catch (err) {
    return (err as Error).message;
  }
}

const corners: ArgsDef = {
  prompt: { type: "positional", required: false },
  agent: { type: "string", alias: "a" },
  model: { type: "string", alias: ["m", "mod"] },
  json: { type: "boolean" },
  "dry-run": { type: "boolean" },
  "max-turns": { type: "string" },
  maxRuns: { type: "string", default: "8" },
  refresh: { type: "boolean", default: true },
  sandbox: { type: "enum", options: ["read-only", "edit", "full"] },
  verbose: { type: "boolean", alias: "v" },
};

const argvs: string[][] = [
  [],
  ["hello"],
  ["hello", "world"],
  ["--agent", "claude", "hi"],
  ["--agent=claude", "hi"],
  ["-a", "claude", "hi"],
  ["-aclaude", "hi"],
  ["-va", "claude"],
  ["-vaclaude"],
  ["-av"],
  ["--agent"],
  ["--agent", "--json"],
  ["-a"],
  ["--json", "hi"],
  ["--json=false"],
  ["--json=true", "x"],
  ["--json", "false"],
  ["--no-json"],
  ["--no-refresh"],
  ["--refresh=false"],
  ["--no-v"],
  ["--dry-run"],
  ["--dryRun"],
  ["--no-dry-run"],
  ["--max-turns", "3"],
  ["--maxTurns", "3"],
  ["--max-runs=2"],
  ["--maxRuns", "2"],
  ["--mod", "opus"],
  ["-m", "opus", "-m", "sonnet"],
  ["--sandbox", "edit"],
  ["--sandbox", "root"],
  ["--sandbox=read-only"],
  ["--", "--json", "-a", "x"],
  ["hi", "--", "--no-json"],
  ["-"],
  ["-5"],
  ["--unknown", "x"],
  ["--unknown=x"],
  ["-x"],
  ["-xyz"],
  ["--=x"],
  ["--__proto__=1"],
  ["--agent", "claude", "--agent", "codex"],
  ["-a", "claude", "--agent", "codex"],
  ["--agent", "codex", "-a", "claude"],
  ["-m", "opus", "--mod", "sonnet"],
  ["say", "-a", "claude", "more", "--json", "words"],
];

describe("od reads argv as citty does", () => {
  for (const argv of argvs)
    test(`${JSON.stringify(argv)} against a definition with every kind`, () => {
      expect(ours(argv, corners)).toEqual(citty(argv, corners));
    });

  test("a required positional, a required option and a positional default are refused or filled alike", () => {
    const defs: ArgsDef = {
      id: { type: "positional" },
      label: { type: "positional", required: false, default: "none" },
      agent: { type: "string", required: true },
    };
    for (const argv of [[], ["run-1"], ["run-1", "--agent", "x"], ["run-1", "two", "--agent=x"]])
      expect(ours(argv, defs)).toEqual(citty(argv, defs));
  });

  test("every command of od, with its own options, its aliases and a prompt", async () => {
    const tried: string[] = [];
    for (const [name, load] of Object.entries(commands)) {
      const defs = ((await load()).args ?? {}) as ArgsDef;
      const options = Object.entries(defs).filter(([, d]) => d.type !== "positional");
      const argv = options.flatMap(([n, d]) =>
        d.type === "boolean" ? [`--${n}`] : [`--${n}`, d.type === "enum" ? String(d.options?.[0]) : "v"],
      );
      const shorts = options.flatMap(([, d]) => [(d as { alias?: string | string[] }).alias ?? []].flat().map((a) => `-${a}`));
      for (const words of [argv, [...argv, "a prompt"], ["a", "prompt", ...shorts, "x"], options.map(([n]) => `--no-${n}`)]) {
        expect(ours(words, defs)).toEqual(citty(words, defs));
        tried.push(name);
      }
    }
    expect(new Set(tried).size).toBe(Object.keys(commands).length);
  });

  test("the answer is a plain object with every spelling of what was given (citty's was a Proxy converting names on each read)", () => {
    const a = parseCommandArgs(["--dryRun", "--max-turns", "3", "-m", "opus", "hi"], corners);
    expect(types.isProxy(a)).toBe(false);
    expect([a["dry-run"], a.dryRun, a["max-turns"], a.maxTurns, a.model, a.m, a.prompt]).toEqual([
      true,
      true,
      "3",
      "3",
      "opus",
      "opus",
      "hi",
    ]);
    const b = parseCommandArgs(["--dry-run", "--maxTurns=4", "hi"], corners);
    expect([b["dry-run"], b.dryRun, b["max-turns"], b.maxTurns, b.model]).toEqual([true, true, "4", "4", undefined]);
  });

  test.each([
    ["dry-run", "dryRun", "dry-run"],
    ["max-turns", "maxTurns", "max-turns"],
    ["maxTurns", "maxTurns", "max-turns"],
    ["json", "json", "json"],
    ["skills-dir", "skillsDir", "skills-dir"],
    ["a-1b", "a1b", "a-1b"],
    ["x-", "x-", "x-"],
    ["a--b", "a-B", "a--b"],
    ["HTTPPort", "HTTPPort", "httpport"],
    ["v2Name", "v2Name", "v2-name"],
  ])("%s is %s in camelCase and %s in kebab-case", (name, camelCase, kebabCase) => {
    expect([camel(name), kebab(name)]).toEqual([camelCase, kebabCase]);
  });

  test("a usage error names the command's help", () => {
    expect(() => parseCommandArgs(["--sandbox", "root"], corners, "run")).toThrow(
      expect.objectContaining({ code: "INVALID_REQUEST", hint: "See `od run --help`." }),
    );
  });
});
