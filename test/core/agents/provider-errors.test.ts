/**
 * Provider error tables, the way ESLint's RuleTester runs rules: every
 * test/fixtures/provider-errors/<provider>.json row is a provider's real error
 * body or message (with where it was seen), and the code od must read from it,
 * whether it comes as an agent's error text or as the last line of its stderr.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ErrorCode } from "../../../src/core/contract/errors.ts";
import { classifyStderr, errorFromText } from "../../../src/core/protocols/classify-text.ts";
import { firstRules, matchProviderError, PROVIDER_RULES } from "../../../src/core/protocols/provider-errors.ts";
import { FIXTURES } from "../../helpers.ts";

interface Case {
  code: ErrorCode;
  /** The error as a CLI prints it, or `body`: the provider's JSON body, printed as JSON. */
  text?: string;
  body?: unknown;
  source: string;
  /** An account out of credit: not retried, and the hint says to check billing. */
  billing?: boolean;
  /** Defaults to "retried only when rate limited". */
  retryable?: boolean;
  /** Part of a credential the provider echoed: it must not survive into the event. */
  secret?: string;
  note?: string;
}

interface Table {
  provider: string;
  docs: string;
  cases: Case[];
}

const DIR = join(FIXTURES, "provider-errors");
const AGENT = { name: "Agent", login: "agent login" };
const tables = readdirSync(DIR)
  .filter((f) => f.endsWith(".json"))
  .map((f) => ({ file: f, ...(JSON.parse(readFileSync(join(DIR, f), "utf8")) as Table) }));

const textOf = (c: Case) => c.text ?? JSON.stringify(c.body);
const label = (c: Case) => `${c.code} ← ${textOf(c).replace(/\s+/g, " ").slice(0, 90)}`;

test("the tables cover every provider the CLIs reach, each row with its source", () => {
  expect(tables.map((t) => t.file.replace(/\.json$/, "")).sort()).toEqual(
    [
      "agent-clis",
      "anthropic",
      "azure-openai",
      "bedrock",
      "dashscope",
      "deepseek",
      "gemini",
      "moonshot",
      "openai",
      "openrouter",
      "vertex",
    ].sort(),
  );
  for (const t of tables)
    for (const c of t.cases) {
      expect(c.source, `${t.file}: ${label(c)}`).toBeTruthy();
      expect(typeof textOf(c), `${t.file}: a row needs text or body`).toBe("string");
    }
});

for (const table of tables) {
  describe(`${table.provider} errors`, () => {
    test.each(table.cases.map((c) => [label(c), c] as const))("%s", (_, c) => {
      const text = textOf(c);
      const error = errorFromText(text, AGENT);
      expect({ code: error.code, source: c.source }).toEqual({ code: c.code, source: c.source });
      expect(error.retryable).toBe(c.retryable ?? c.code === "RATE_LIMITED");
      if (c.billing) expect(error.hint).toMatch(/billing/i);
      if (c.secret) expect(error.message).not.toContain(c.secret);
      // The same words as the last line of a stderr tail: recognised there too (an unknown one is left to the crash report).
      const tail = classifyStderr(`starting…\n${text.replace(/\s*\n\s*/g, " ")}\n`, AGENT);
      expect(tail?.code ?? "AGENT_ERROR").toBe(c.code);
      if (c.billing) expect(tail?.hint).toMatch(/billing/i);
      if (c.secret) expect(tail?.message ?? "").not.toContain(c.secret);
    });
  });
}

describe("hints", () => {
  test("auth names the agent's login; a model the CLI is too old for says to upgrade it", () => {
    expect(errorFromText("401 Unauthorized", AGENT).hint).toBe("Log in: agent login");
    expect(errorFromText("The 'gpt-9' model requires a newer version of Codex.", AGENT).hint).toMatch(/upgrade/i);
    expect(errorFromText("model not found", AGENT).hint).toMatch(/model/i);
  });
});

describe("the looks before the table (firstRules)", () => {
  test("every rule can join them: case-insensitive only, no group or back reference a union would renumber", () => {
    for (const rule of PROVIDER_RULES) {
      expect(rule.pattern.flags, rule.what).toBe("i");
      expect(rule.pattern.source, rule.what).not.toMatch(/\\[1-9k]|\((?!\?)/);
    }
  });

  const texts = [
    ...tables.flatMap((t) => t.cases.map(textOf)),
    "Codex reported a failed turn",
    "stream disconnected before completion: error sending request",
    "disk quota exceeded",
    "HTTP 401:1",
    // Several rules' words, the later rule's first: the table's order decides, not the text's.
    "429 Too Many Requests: insufficient_quota",
    "401 Unauthorized: prompt is too long",
    "rate limit reached; model not found",
  ];

  test("the union of the first n rules matches exactly the texts one of them matches: every row of the tables, and words none knows", () => {
    for (const text of texts)
      firstRules().forEach((union, n) =>
        expect(union.test(text), `${n}: ${text}`).toBe(PROVIDER_RULES.slice(0, n + 1).some((rule) => rule.pattern.test(text))),
      );
  });

  test("the rule found is the table's first that matches", () => {
    for (const text of texts) expect(matchProviderError(text), text).toBe(PROVIDER_RULES.find((rule) => rule.pattern.test(text)));
  });
});
