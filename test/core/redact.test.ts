import { describe, expect, test } from "bun:test";
import { createRegistry } from "../../src/core/agents/registry.ts";
import { providerMessage } from "../../src/core/api/http.ts";
import type { OdEventBody } from "../../src/core/contract/events.ts";
import { defineDriver } from "../../src/core/protocols/driver.ts";
import { finishing, interpret } from "../../src/core/protocols/interpret.ts";
import { REDACTED, redact, SUSPECT } from "../../src/core/protocols/redact.ts";
import { collect, installFake, ofType, tmpdir } from "../helpers.ts";
import { fakeAdapter } from "../support/fake-adapter.ts";
import { runAgent } from "../support/run.ts";

/** [text, the secret that must go, what must stay]. */
const CASES: Array<[string, string, string]> = [
  ["Authorization: Bearer sk-ant-oat01-AbCdEfGhIjKlMnOp", "AbCdEfGhIjKlMnOp", "Authorization: Bearer"],
  ['{"authorization":"Basic dXNlcjpwYXNzd29yZA=="}', "dXNlcjpwYXNzd29yZA", '"authorization":"Basic'],
  ["request failed: bearer eyJhbGciOiJIUzI1NiJ9.abc.def", "eyJhbGciOiJIUzI1NiJ9", "request failed: bearer"],
  ["x-api-key: sk-ant-api03-Zz9Yy8Xx7Ww6Vv5", "Zz9Yy8Xx7Ww6Vv5", "x-api-key:"],
  ['headers: {"x-goog-api-key":"AIzaSyAhTarnL1PaQn_yu_uVf0gia9wUyJx8RSI"}', "AIzaSyAhTarnL1PaQn", '"x-goog-api-key"'],
  ['{\\"api-key\\":\\"0123456789abcdef0123\\"}', "0123456789abcdef0123", "api-key"],
  ['api_key = "od-live-not-a-key"', "od-live-not-a-key", "api_key ="],
  ["OPENAI_API_KEY=plain-secret-value npm start", "plain-secret-value", "npm start"],
  ["AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMI", "AWS_SECRET_ACCESS_KEY="],
  [
    "POST https://generativelanguage.googleapis.com/v1beta/models/g:streamGenerateContent?key=AIzaSyA1234567890abcdefghijklmnopqrst&alt=sse failed",
    "1234567890abcdef",
    "&alt=sse failed",
  ],
  ["GET /v1/models?api_key=abcd1234efgh", "abcd1234efgh", "GET /v1/models?"],
  ["sk-proj-AbCdEf0123456789ZZ is not a valid key", "AbCdEf0123456789", "is not a valid key"],
  ["Consumer 'api_key:AIzaSyAhTarnL1PaQn_yu_uVf0gia9wUyJx8RSI' has been suspended.", "AIzaSyAhTarnL1PaQn", "has been suspended."],
  [
    "Incorrect API key provided: sk-abc12*****************************wxyz. You can find your API key at https://platform.openai.com/account/api-keys.",
    "sk-abc12",
    "You can find your API key at https://platform.openai.com/account/api-keys.",
  ],
  ["Incorrect API key provided: od-live-***-key. You can find", "od-live-***-key", "Incorrect API key provided: [redacted]. You can find"],
  ["Authentication Fails, Your api key: ****cd15 is invalid", "****cd15", "Your api key: [redacted] is invalid"],
  ["token ghp_abcdefghijklmnopqrstuvwxyz0123456789 rejected", "ghp_abcdefghij", "rejected"],
  ["credentials AKIAIOSFODNN7EXAMPLE are invalid", "AKIAIOSFODNN7EXAMPLE", "are invalid"],
  ["Authorization: Bearer ya29.a0AZYkNZhxkOOeKm1TTYwm1Y404v5nctH6p", "a0AZYkNZhxkOOe", "Authorization: Bearer"],
];

describe("redact", () => {
  test.each(CASES)("%s", (text, secret, kept) => {
    const out = redact(text);
    expect(out).not.toContain(secret);
    expect(out).toContain(REDACTED);
    expect(out).toContain(kept);
    expect(redact(out)).toBe(out);
  });

  test("text without a credential is returned as it is", () => {
    for (const text of [
      "The task-runner finished: 3 files changed",
      "Bearer of bad news: the build is red",
      "invalid x-api-key",
      "API key not valid. Please pass a valid API key.",
      "Rate limit reached for gpt-4 in organization org-uVqpjtJiKqvVJMVfvpaounIh on tokens per min (TPM)",
      "prompt is too long: 208310 tokens > 200000 maximum",
      "api_key_invalid",
    ])
      expect(redact(text)).toBe(text);
  });

  test("asked again, it answers the same: a credential goes every time, a text that mentions keys stays", () => {
    const mentions = [
      "Invalid API key (model stub)",
      "Log in: run `codex login` (or `printenv OPENAI_API_KEY | codex login --with-api-key`)",
    ];
    for (let round = 0; round < 3; round++) {
      for (const text of mentions) expect(redact(text)).toBe(text);
      for (const [text, secret] of CASES) expect(redact(text)).not.toContain(secret);
    }
    // Twice in a row (the last answer is kept), and a text after another: each its own answer.
    const plain = "The task-runner finished: 3 files changed";
    for (const [text, secret] of CASES) {
      expect(redact(text)).not.toContain(secret);
      expect(redact(`${text}`)).not.toContain(secret);
      expect(redact(plain)).toBe(plain);
    }
  });

  test("the first look passes every credential on, and not lines that only count tokens or name a key", () => {
    for (const [text] of CASES) expect(SUSPECT.test(text)).toBe(true);
    for (const text of [
      '{"method":"_x/status_update","params":{"usage":{"inputTokens":120,"output_tokens":5},"sessionKey":"k1"}}',
      '{"label":"Input tokens","keyboard":"monkey"}',
      "prompt is too long: 208310 tokens > 200000 maximum",
    ])
      expect(SUSPECT.test(text)).toBe(false);
  });
});

describe("interpret keeps credentials out of an agent's diagnostics", () => {
  const SECRET = "sk-ant-api03-LEAKED0123456789";
  const driver = defineDriver<null>({
    name: "test",
    keepStdinOpen: false,
    start: () => ({ state: null, send: [] }),
    abort: () => [],
    receive: (record) => {
      const r = record as { say: string };
      return {
        events: [
          { type: "text.delta", id: "t", text: r.say },
          { type: "error", code: "AGENT_ERROR", message: `failed: ${r.say}`, hint: `check ${r.say}`, retryable: false },
          { type: "status", label: "retrying", detail: r.say },
          { type: "raw", stream: "stderr", line: r.say },
        ],
      };
    },
    finish: () => [{ type: "error", code: "AGENT_ERROR", message: `at the end: Bearer ${SECRET}`, retryable: false }],
  });
  const events = (line: string): OdEventBody[] => interpret(driver, null, line, false).events;

  test("error messages and hints, status details and raw lines are redacted; assistant text is not", () => {
    const [text, error, status, raw] = events(JSON.stringify({ say: `x-api-key: ${SECRET}` }));
    expect(text).toEqual({ type: "text.delta", id: "t", text: `x-api-key: ${SECRET}` });
    expect(JSON.stringify([error, status, raw])).not.toContain("LEAKED");
    expect(error).toMatchObject({ message: `failed: x-api-key: ${REDACTED}`, hint: `check x-api-key: ${REDACTED}` });
  });

  test("a line the driver cannot read is kept raw, without its credential", () => {
    expect(events(`not json: Authorization: Bearer ${SECRET}`)).toEqual([
      { type: "raw", stream: "stdout", line: `not json: Authorization: Bearer ${REDACTED}` },
    ]);
  });

  test("what the driver adds at the end is redacted too", () => {
    expect(JSON.stringify(finishing(driver, null, false))).not.toContain("LEAKED");
  });
});

test("an agent that dies with a key on stderr: the closing error quotes its last words without the key", async () => {
  await using tmp = tmpdir();
  const fake = installFake(tmp.path, "fake-agent", [
    { stderr: "POST /v1/messages failed\nrequest headers: x-api-key: sk-ant-api03-STDERRLEAK9876543210\n" },
    { exit: 1 },
  ]);
  const registry = createRegistry([fakeAdapter]);
  const events = await collect(runAgent({ agent: "fake", prompt: "x", cwd: tmp.path }, { registry, env: fake.env }));
  const [error] = ofType(events, "error");
  expect(error).toMatchObject({ code: "AGENT_CRASHED", message: `Fake Agent exited with code 1: request headers: x-api-key: ${REDACTED}` });
  expect(JSON.stringify(events)).not.toContain("STDERRLEAK");
});

test("od's own loop: the provider's message for a refused key is quoted without the key", () => {
  const body = {
    error: {
      message:
        "Incorrect API key provided: sk-proj-abc12*****wxyz. You can find your API key at https://platform.openai.com/account/api-keys.",
    },
  };
  expect(providerMessage(JSON.stringify(body))).toBe(
    `Incorrect API key provided: ${REDACTED}. You can find your API key at https://platform.openai.com/account/api-keys.`,
  );
  expect(providerMessage("401 Unauthorized: x-api-key: sk-ant-api03-abcdefghijkl")).toBe(`401 Unauthorized: x-api-key: ${REDACTED}`);
});
