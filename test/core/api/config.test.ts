import { describe, expect, test } from "bun:test";
import { DEFAULT_MAX_TURNS, endpointOf, resolveConfig } from "../../../src/core/api/config.ts";

const edit = { mode: "edit" } as const;

describe("api config", () => {
  test("the provider: explicit, else a base URL means openai-compatible, else whichever key is set", () => {
    expect(resolveConfig(edit, { ANTHROPIC_API_KEY: "a" })).toMatchObject({
      provider: "anthropic",
      baseUrl: "https://api.anthropic.com",
      key: "a",
      model: "claude-sonnet-4-5",
    });
    expect(resolveConfig(edit, { OPENAI_API_KEY: "o" })).toMatchObject({
      provider: "openai",
      baseUrl: "https://api.openai.com/v1",
      key: "o",
      model: "gpt-4.1",
    });
    expect(resolveConfig(edit, { ANTHROPIC_API_KEY: "a", OPENAI_API_KEY: "o" }).provider).toBe("anthropic");
    expect(resolveConfig(edit, { ANTHROPIC_API_KEY: "a", OD_API_BASE_URL: "http://localhost:11434" })).toMatchObject({
      provider: "openai",
      baseUrl: "http://localhost:11434/v1",
      key: undefined,
      model: undefined,
    });
    expect(resolveConfig(edit, { OD_API_KEY: "k", OD_API_PROVIDER: "openai", ANTHROPIC_API_KEY: "a" })).toMatchObject({
      provider: "openai",
      key: "k",
    });
    expect(resolveConfig(edit, { OD_API_PROVIDER: "anthropic", OD_API_KEY: "k", ANTHROPIC_API_KEY: "a" }).key).toBe("k");
  });

  test("base URLs: no trailing slash, a bare origin gets /v1 for openai, a path is kept", () => {
    expect(resolveConfig(edit, { OD_API_BASE_URL: "https://openrouter.ai/api/v1/", OD_API_KEY: "k" }).baseUrl).toBe(
      "https://openrouter.ai/api/v1",
    );
    expect(resolveConfig(edit, { OD_API_BASE_URL: "http://127.0.0.1:1234/" }).baseUrl).toBe("http://127.0.0.1:1234/v1");
    expect(
      resolveConfig(edit, { OD_API_PROVIDER: "anthropic", ANTHROPIC_API_KEY: "a", ANTHROPIC_BASE_URL: "https://proxy.example/" }).baseUrl,
    ).toBe("https://proxy.example");
    expect(resolveConfig(edit, { OD_API_BASE_URL: "https://x.example/api//v1///", OD_API_KEY: "k" }).baseUrl).toBe(
      "https://x.example/api//v1",
    );
    expect(resolveConfig(edit, { OD_API_BASE_URL: "http://127.0.0.1:1234///" }).baseUrl).toBe("http://127.0.0.1:1234/v1");
    expect(() => resolveConfig(edit, { OD_API_BASE_URL: "localhost:11434" })).toThrow("http(s)");
    expect(() => resolveConfig(edit, { OD_API_BASE_URL: "not a url" })).toThrow("Not a URL");
  });

  test("the run's settings, limits and refusals", () => {
    const c = resolveConfig(
      { mode: "read-only", model: "m", resume: "api-1" },
      { ANTHROPIC_API_KEY: "a", OD_API_MODEL: "env-model", OD_API_MAX_TOKENS: "500" },
    );
    expect(c).toMatchObject({ mode: "read-only", model: "m", resume: "api-1", maxTurns: DEFAULT_MAX_TURNS, maxTokens: 500 });
    // A turn cap from the run wins over the environment's; without one, the environment's applies.
    expect(resolveConfig({ mode: "edit", maxTurns: 3 }, { ANTHROPIC_API_KEY: "a", OD_API_MAX_TURNS: "9" }).maxTurns).toBe(3);
    expect(resolveConfig(edit, { ANTHROPIC_API_KEY: "a", OD_API_MAX_TURNS: "9" }).maxTurns).toBe(9);
    expect(() => resolveConfig({ mode: "edit", maxTurns: 0 }, { ANTHROPIC_API_KEY: "a" })).toThrow("maxTurns must be a positive");
    expect(() => resolveConfig({ mode: "edit", maxTurns: 1.5 }, { ANTHROPIC_API_KEY: "a" })).toThrow("maxTurns must be a positive");
    expect(() => resolveConfig(edit, {})).toThrow("No API key");
    expect(() => resolveConfig(edit, { OPENAI_API_KEY: "" })).toThrow("No API key");
    expect(() => resolveConfig(edit, { OD_API_PROVIDER: "gemini", OD_API_KEY: "k" })).toThrow('"anthropic" or "openai"');
    expect(() => resolveConfig(edit, { ANTHROPIC_API_KEY: "a", OD_API_MAX_TURNS: "0" })).toThrow("OD_API_MAX_TURNS must be a positive");
  });

  test("the endpoint od agents shows", () => {
    expect(endpointOf({ ANTHROPIC_API_KEY: "a" })).toBe("anthropic https://api.anthropic.com");
    expect(endpointOf({ OD_API_BASE_URL: "http://localhost:11434/v1" })).toBe("openai http://localhost:11434/v1");
    expect(endpointOf({})).toBeUndefined();
  });
});
