// Offline tests of the stub's http-error and script scenarios (used by the api loop's tests).
import { afterAll, describe, expect, test } from "bun:test";
import { startModelStub } from "./model-stub.ts";

const stub = await startModelStub();
afterAll(() => stub.stop());

const post = (path: string, body: unknown) =>
  fetch(stub.url + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const user = (content: string) => ({ role: "user", content });

describe("http-error", () => {
  test("the first `times` requests fail with the status, headers and each API's error shape; then `then` answers", async () => {
    stub.script({ kind: "http-error", status: 429, times: 2, retryAfter: "7", retryAfterMs: 250, then: { kind: "chat", text: "after" } });
    const a = await post("/v1/messages", { model: "m", max_tokens: 10, messages: [user("x")] });
    expect(a.status).toBe(429);
    expect(a.headers.get("retry-after")).toBe("7");
    expect(a.headers.get("retry-after-ms")).toBe("250");
    expect(await a.json()).toEqual({ type: "error", error: { type: "rate_limit_error", message: "Rate limited (model stub)" } });
    const o = await post("/v1/chat/completions", { model: "m", messages: [user("x")] });
    expect(o.status).toBe(429);
    expect(await o.json()).toMatchObject({ error: { type: "rate_limit_exceeded", message: "Rate limited (model stub)" } });
    expect(stub.requests.slice(-2).map((r) => r.answered)).toEqual(["http-429", "http-429"]);
    const ok = await post("/v1/chat/completions", { model: "m", messages: [user("x")] });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as any).choices[0].message.content).toBe("after");
  });

  test("without `times` every request fails; 529 is anthropic's overloaded_error; other routes are untouched", async () => {
    stub.script({ kind: "http-error", status: 529 });
    for (let i = 0; i < 3; i++) expect((await post("/v1/messages", { model: "m", max_tokens: 1, messages: [user("x")] })).status).toBe(529);
    expect(await (await post("/v1/messages", { model: "m", max_tokens: 1, messages: [user("x")] })).json()).toMatchObject({
      error: { type: "overloaded_error" },
    });
    expect((await post("/v1/responses", { model: "m", input: "x" })).status).toBe(529);
    expect((await post("/v1beta/models/m:generateContent", { contents: [] })).status).toBe(529);
    expect((await fetch(`${stub.url}/v1/models`)).status).toBe(200);
    expect((await post("/v1/messages/count_tokens", { messages: [] })).status).toBe(200);
  });
});

describe("script", () => {
  const steps = [
    {
      tools: [
        { name: "Read", args: { path: "a" } },
        { name: "Write", args: { path: "b", content: "c" } },
      ],
    },
    { text: "done" },
  ];

  test("anthropic: step n for the n-th assistant turn, parallel tool_use blocks in one message", async () => {
    stub.script({ kind: "script", steps });
    const first: any = await (await post("/v1/messages", { model: "m", max_tokens: 10, stream: false, messages: [user("go")] })).json();
    expect(first.content.map((b: { name: string; input: unknown }) => [b.name, b.input])).toEqual([
      ["Read", { path: "a" }],
      ["Write", { path: "b", content: "c" }],
    ]);
    expect(stub.requests.at(-1)!.answered).toBe("tool:Read");
    const second: any = await (
      await post("/v1/messages", {
        model: "m",
        max_tokens: 10,
        stream: false,
        messages: [user("go"), { role: "assistant", content: first.content }, user("r")],
      })
    ).json();
    expect(second.content[0].text).toBe("done");
  });

  test("openai chat: parallel tool_calls streamed with their own indexes", async () => {
    stub.script({ kind: "script", steps });
    const text = await (await post("/v1/chat/completions", { model: "m", stream: true, messages: [user("go")] })).text();
    const chunks = text
      .split("\n\n")
      .filter((b) => b.startsWith("data: {"))
      .map((b) => JSON.parse(b.slice(6)));
    const calls = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(new Set(calls.map((c: { index: number }) => c.index))).toEqual(new Set([0, 1]));
    expect(
      calls.filter((c: { function: { name?: string } }) => c.function.name).map((c: { function: { name: string } }) => c.function.name),
    ).toEqual(["Read", "Write"]);
  });
});
