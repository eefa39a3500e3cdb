// Provider failures through the whole pipeline: 401 is final, 429 and 5xx are retried (bounded,
// honouring retry-after), cancel and timeout end the loop like a spawned agent, one run.finished always.
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { OdEvent } from "../../../src/core/contract/events.ts";
import { finished, ofType, tmpdir } from "../../helpers.ts";
import { startModelStub } from "../../live/model-stub.ts";
import { runAgent } from "../../support/run.ts";
import { PROVIDERS, registry, runApi, stubEnv } from "./harness.ts";

const stub = await startModelStub();
afterAll(() => stub.stop());

/** The requests a run made, and the gaps between them in ms (what the retries waited). */
function requestsSince(before: number) {
  const mine = stub.requests.slice(before);
  return { count: mine.length, gaps: mine.slice(1).map((r, i) => r.at - mine[i]!.at) };
}

const retries = (events: OdEvent[]) => ofType(events, "status").filter((e) => e.label === "retrying");

describe.each(PROVIDERS)("api errors (%s)", (provider) => {
  test("401: AGENT_AUTH_REQUIRED with the provider's message, no retry, failed", async () => {
    await using tmp = tmpdir();
    stub.script({ kind: "auth-error", message: "Invalid API key (model stub)" });
    const before = stub.requests.length;
    const events = await runApi({ cwd: tmp.path }, stubEnv(stub, provider, tmp.path));
    const [error, ...others] = ofType(events, "error");
    expect(others).toEqual([]);
    expect(error).toMatchObject({
      code: "AGENT_AUTH_REQUIRED",
      message: `${provider} answered 401: Invalid API key (model stub)`,
      retryable: false,
    });
    expect(error!.hint).toContain(provider === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY");
    expect(requestsSince(before).count).toBe(1);
    expect(retries(events)).toEqual([]);
    expect(finished(events)).toMatchObject({ status: "failed" });
  });

  test("no key at all: AGENT_AUTH_REQUIRED before any request", async () => {
    await using tmp = tmpdir();
    const env = stubEnv(stub, provider, tmp.path);
    delete env.ANTHROPIC_API_KEY;
    delete env.OPENAI_API_KEY;
    delete env.OD_API_BASE_URL; // the official endpoint needs a key (a local one would not)
    const before = stub.requests.length;
    const events = await runApi({ cwd: tmp.path }, env);
    expect(ofType(events, "error")[0]).toMatchObject({ code: "AGENT_AUTH_REQUIRED" });
    expect(stub.requests.length).toBe(before);
    expect(finished(events).status).toBe("failed");
  });

  test("429 with retry-after-ms: retried after the wait asked for, each retry a status, then success", async () => {
    await using tmp = tmpdir();
    stub.script({ kind: "http-error", status: 429, times: 2, retryAfterMs: 150, then: { kind: "chat", text: "finally" } });
    const before = stub.requests.length;
    const events = await runApi({ cwd: tmp.path }, stubEnv(stub, provider, tmp.path));
    expect(finished(events).status).toBe("succeeded");
    expect(
      ofType(events, "text.delta")
        .map((e) => e.text)
        .join(""),
    ).toBe("finally");
    const { count, gaps } = requestsSince(before);
    expect(count).toBe(3);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(145);
    expect(retries(events).map((e) => e.detail)).toEqual([
      `${provider} answered 429 (rate limited); retry 1 of 4 in 150 ms (as the provider asked)`,
      `${provider} answered 429 (rate limited); retry 2 of 4 in 150 ms (as the provider asked)`,
    ]);
  });

  test("429 that never ends: RATE_LIMITED (retryable) after 1 + 4 attempts", async () => {
    await using tmp = tmpdir();
    stub.script({ kind: "http-error", status: 429, retryAfterMs: 5 });
    const before = stub.requests.length;
    const events = await runApi({ cwd: tmp.path }, stubEnv(stub, provider, tmp.path));
    expect(requestsSince(before).count).toBe(5);
    expect(retries(events)).toHaveLength(4);
    expect(ofType(events, "error")).toHaveLength(1);
    expect(ofType(events, "error")[0]).toMatchObject({ code: "RATE_LIMITED", retryable: true });
    expect(ofType(events, "error")[0]!.message).toContain("gave up after 5 attempts");
    expect(finished(events).status).toBe("failed");
  });

  test("a retry-after longer than od waits ends the run at once, RATE_LIMITED", async () => {
    await using tmp = tmpdir();
    stub.script({ kind: "http-error", status: 429, retryAfter: "3600" });
    const before = stub.requests.length;
    const events = await runApi({ cwd: tmp.path }, stubEnv(stub, provider, tmp.path));
    expect(requestsSince(before).count).toBe(1);
    expect(ofType(events, "error")[0]).toMatchObject({ code: "RATE_LIMITED" });
    expect(ofType(events, "error")[0]!.message).toContain("asks to wait 3600 s");
  });

  test.each([500, 503, 529])("%i is retried a bounded number of times, then succeeds or fails as AGENT_ERROR", async (status) => {
    await using tmp = tmpdir();
    stub.script({ kind: "http-error", status, times: 2, retryAfterMs: 10, then: { kind: "chat", text: "recovered" } });
    const ok = await runApi({ cwd: tmp.path }, stubEnv(stub, provider, tmp.path));
    expect(finished(ok).status).toBe("succeeded");
    expect(retries(ok)).toHaveLength(2);

    stub.script({ kind: "http-error", status, retryAfterMs: 10 });
    const before = stub.requests.length;
    const bad = await runApi({ cwd: tmp.path }, stubEnv(stub, provider, tmp.path));
    expect(requestsSince(before).count).toBe(4); // 1 + 3 retries
    expect(ofType(bad, "error")).toHaveLength(1);
    expect(ofType(bad, "error")[0]).toMatchObject({ code: "AGENT_ERROR" });
    expect(ofType(bad, "error")[0]!.message).toContain(`${status}`);
    expect(finished(bad).status).toBe("failed");
  });

  test("cancel mid-stream: cancelled at once, no error, one run.finished", async () => {
    await using tmp = tmpdir();
    stub.script({ kind: "slow", text: "one two three four five six seven eight", delayMs: 300 });
    const controller = new AbortController();
    const events: OdEvent[] = [];
    const started = performance.now();
    for await (const e of runAgent(
      { agent: "api", prompt: "talk slowly", cwd: tmp.path },
      { registry, env: stubEnv(stub, provider, tmp.path), signal: controller.signal },
    )) {
      events.push(e);
      if (e.type === "text.delta") controller.abort();
    }
    expect(performance.now() - started).toBeLessThan(1500);
    expect(ofType(events, "text.delta").length).toBeLessThan(8);
    expect(ofType(events, "error")).toEqual([]);
    expect(finished(events)).toMatchObject({ status: "cancelled", exitCode: null, signal: null });
  });

  test("cancel during a retry wait ends at once", async () => {
    await using tmp = tmpdir();
    stub.script({ kind: "http-error", status: 503, retryAfterMs: 30_000 });
    const controller = new AbortController();
    const events: OdEvent[] = [];
    const started = performance.now();
    for await (const e of runAgent(
      { agent: "api", prompt: "x", cwd: tmp.path },
      { registry, env: stubEnv(stub, provider, tmp.path), signal: controller.signal },
    )) {
      events.push(e);
      if (e.type === "status" && e.label === "retrying") controller.abort();
    }
    expect(performance.now() - started).toBeLessThan(1500);
    expect(finished(events).status).toBe("cancelled");
  });

  test("a stalled stream hits the run's timeout: TIMEOUT, failed", async () => {
    await using tmp = tmpdir();
    stub.script({ kind: "stall" });
    const events = await runApi({ cwd: tmp.path, timeoutMs: 300 }, stubEnv(stub, provider, tmp.path));
    expect(ofType(events, "error")).toHaveLength(1);
    expect(ofType(events, "error")[0]).toMatchObject({ code: "TIMEOUT" });
    expect(finished(events).status).toBe("failed");
  });

  test("a consumer that stops iterating stops the loop (no request left hanging)", async () => {
    await using tmp = tmpdir();
    stub.script({ kind: "slow", text: "a b c d e f g h", delayMs: 300 });
    const started = performance.now();
    for await (const e of runAgent({ agent: "api", prompt: "x", cwd: tmp.path }, { registry, env: stubEnv(stub, provider, tmp.path) }))
      if (e.type === "text.delta") break;
    expect(performance.now() - started).toBeLessThan(1500);
  });

  test("an answer with nothing in it is EMPTY_OUTPUT, with the loop's note as the hint", async () => {
    await using tmp = tmpdir();
    stub.script({ kind: "chat", text: "" });
    const events = await runApi({ cwd: tmp.path }, stubEnv(stub, provider, tmp.path));
    expect(ofType(events, "error")[0]).toMatchObject({ code: "EMPTY_OUTPUT" });
    expect(ofType(events, "error")[0]!.hint).toContain("stub-model");
  });
});

describe("the pipeline's stage watchdog", () => {
  test("a loop that sends nothing for too long is ended as stuck (TIMEOUT)", async () => {
    await using tmp = tmpdir();
    stub.script({ kind: "stall" });
    const events = await runApi({ cwd: tmp.path }, stubEnv(stub, "anthropic", tmp.path), { idleTimeoutMs: 300 });
    expect(ofType(events, "error")[0]).toMatchObject({ code: "TIMEOUT" });
    expect(ofType(events, "error")[0]!.message).toContain("sent nothing");
    expect(finished(events).status).toBe("failed");
  });
});

describe("api backoff without retry-after (measured)", () => {
  test("one 503 without a retry-after header waits about the 1 s base backoff", async () => {
    await using tmp = tmpdir();
    stub.script({ kind: "http-error", status: 503, times: 1, then: { kind: "chat", text: "ok" } });
    const before = stub.requests.length;
    const events = await runApi({ cwd: tmp.path }, stubEnv(stub, "openai", tmp.path));
    expect(finished(events).status).toBe("succeeded");
    const [gap] = requestsSince(before).gaps;
    expect(gap).toBeGreaterThanOrEqual(790);
    expect(gap).toBeLessThan(1600); // a doubled backoff would wait 1.6 s at least
  });

  test("retry-after in seconds is honoured", async () => {
    await using tmp = tmpdir();
    stub.script({ kind: "http-error", status: 429, times: 1, retryAfter: "1", then: { kind: "chat", text: "ok" } });
    const before = stub.requests.length;
    const events = await runApi({ cwd: tmp.path }, stubEnv(stub, "anthropic", tmp.path));
    expect(finished(events).status).toBe("succeeded");
    const [gap] = requestsSince(before).gaps;
    expect(gap).toBeGreaterThanOrEqual(995);
    expect(gap).toBeLessThan(1600); // a doubled backoff would wait 1.6 s at least
    expect(retries(events)[0]!.detail).toBe("anthropic answered 429 (rate limited); retry 1 of 4 in 1.0 s (as the provider asked)");
  });
});

describe("a local endpoint", () => {
  test("needs no key, and without a model uses the first one it lists", async () => {
    await using tmp = tmpdir();
    stub.script({ kind: "chat", text: "local" });
    const env = { PATH: "/usr/bin:/bin", HOME: tmp.path, OD_HOME: join(tmp.path, ".od"), OD_API_BASE_URL: stub.url };
    const events = await runApi({ cwd: tmp.path }, env);
    expect(finished(events).status).toBe("succeeded");
    expect(ofType(events, "session")[0]!.model).toBe("stub-model");
    const last = stub.requests.at(-1)!;
    expect(last).toMatchObject({ api: "openai-chat", path: "/v1/chat/completions", model: "stub-model" });
    expect(last.headers.authorization).toBeUndefined();
  });
});
