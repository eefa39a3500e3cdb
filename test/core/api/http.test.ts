import { afterAll, describe, expect, test } from "bun:test";
import { backoffMs, DEFAULT_RETRY, postWithRetry, providerMessage, retryAfterMs } from "../../../src/core/api/http.ts";
import type { OdError } from "../../../src/core/contract/errors.ts";
import type { OdEventBody } from "../../../src/core/contract/events.ts";

let answer: () => Response = () => new Response("ok");
const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => answer() });
afterAll(() => server.stop(true));

const fast = { ...DEFAULT_RETRY, baseMs: 5 };

async function post(url = `http://127.0.0.1:${server.port}/x`): Promise<{ events: OdEventBody[]; error?: OdError; ok?: Response }> {
  const events: OdEventBody[] = [];
  const gen = postWithRetry(
    { provider: "openai", url, headers: {}, body: {}, signal: new AbortController().signal, authHint: "set the key", note: () => {} },
    fast,
  );
  try {
    for (;;) {
      const step = await gen.next();
      if (step.done) return { events, ok: step.value };
      events.push(step.value);
    }
  } catch (err) {
    return { events, error: err as OdError };
  }
}

describe("retry-after", () => {
  test("retry-after-ms first, then retry-after in seconds or as a date; garbage is ignored", () => {
    const h = (o: Record<string, string>) => new Headers(o);
    expect(retryAfterMs(h({ "retry-after-ms": "250", "retry-after": "9" }))).toBe(250);
    expect(retryAfterMs(h({ "retry-after": "2" }))).toBe(2000);
    expect(retryAfterMs(h({ "retry-after": "0.5" }))).toBe(500);
    expect(retryAfterMs(h({ "retry-after": "Wed, 21 Oct 2015 07:28:10 GMT" }), Date.parse("Wed, 21 Oct 2015 07:28:00 GMT"))).toBe(10_000);
    expect(retryAfterMs(h({ "retry-after": "Wed, 21 Oct 2015 07:28:00 GMT" }), Date.parse("Wed, 21 Oct 2015 08:00:00 GMT"))).toBe(0);
    expect(retryAfterMs(h({ "retry-after": "soon" }))).toBeUndefined();
    expect(retryAfterMs(h({}))).toBeUndefined();
  });

  test("backoff doubles from 1 s, ±20 %, capped at 30 s", () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(n, DEFAULT_RETRY, () => 0.5))).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffMs(1, DEFAULT_RETRY, () => 0)).toBe(800);
    expect(backoffMs(1, DEFAULT_RETRY, () => 1)).toBe(1200);
    expect(backoffMs(10, DEFAULT_RETRY, () => 0.5)).toBe(30_000);
  });
});

describe("postWithRetry", () => {
  test("a refused connection is no transient failure: ENDPOINT_UNREACHABLE at once, with the URL and the reason", async () => {
    const gone = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
    const url = `http://127.0.0.1:${gone.port}/v1/chat/completions`;
    await gone.stop(true);
    const { events, error } = await post(url);
    expect(events).toEqual([]);
    expect(error).toMatchObject({ code: "ENDPOINT_UNREACHABLE", message: `Cannot reach ${url}: connection refused` });
    expect(error?.hint).toContain("OD_API_BASE_URL");
  });

  test("a connection dropped before the answer is transient: retried, then AGENT_ERROR", async () => {
    const rude = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { open: (socket) => void socket.end(), data: () => {} } });
    const { events, error } = await post(`http://127.0.0.1:${rude.port}/v1/chat/completions`);
    rude.stop(true);
    expect(events).toHaveLength(3);
    expect((events[0] as { detail: string }).detail).toContain("no connection");
    expect(error).toMatchObject({ code: "AGENT_ERROR", hint: "Is the server running? Check OD_API_BASE_URL." });
  });

  test("statuses that are not worth retrying map to their codes at once", async () => {
    const cases: Array<[number, unknown, string]> = [
      [403, { error: { message: "forbidden" } }, "AGENT_AUTH_REQUIRED"],
      [429, { error: { message: "You exceeded your current quota", code: "insufficient_quota" } }, "RATE_LIMITED"],
      [404, { error: { message: "model 'nope' not found" } }, "MODEL_NOT_AVAILABLE"],
      [404, "Not Found", "AGENT_ERROR"],
      [400, { error: { message: "prompt is too long: 300000 tokens > 200000 maximum" } }, "AGENT_PROMPT_TOO_LARGE"],
      [413, "too big", "AGENT_PROMPT_TOO_LARGE"],
      [400, { error: { message: "tools: bad schema" } }, "AGENT_ERROR"],
    ];
    for (const [status, body, code] of cases) {
      answer = () => (typeof body === "string" ? new Response(body, { status }) : Response.json(body, { status }));
      const { events, error } = await post();
      expect({ status, code: error?.code, retries: events.length }).toEqual({ status, code: code as never, retries: 0 });
    }
  });

  test("the provider's message is taken from either API's error body", () => {
    expect(providerMessage('{"type":"error","error":{"type":"x","message":"anthropic says"}}')).toBe("anthropic says");
    expect(providerMessage('{"error":{"message":"openai says"}}')).toBe("openai says");
    expect(providerMessage('{"error":"ollama says"}')).toBe("ollama says");
    expect(providerMessage("  plain text \n")).toBe("plain text");
  });
});
