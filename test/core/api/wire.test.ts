// What real servers do that the stub does not: mid-stream errors, dropped streams, garbage,
// missing or repeated tool ids, Ollama-style tool calls, OpenRouter's cost; and the message mapping.
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { toWire as anthropicWire } from "../../../src/core/api/anthropic.ts";
import type { Message } from "../../../src/core/api/conversation.ts";
import { toWire as openaiWire } from "../../../src/core/api/openai.ts";
import { finished, ofType, tmpdir } from "../../helpers.ts";
import { runApi } from "./harness.ts";

let frames: string[] = [];
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch: () => new Response(frames.join(""), { headers: { "content-type": "text/event-stream" } }),
});
afterAll(() => server.stop(true));

const sse = (data: unknown, event?: string) =>
  `${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
const envFor = (provider: "anthropic" | "openai", home: string) => ({
  HOME: home,
  OD_HOME: join(home, ".od"),
  OD_API_PROVIDER: provider,
  OD_API_BASE_URL: `http://127.0.0.1:${server.port}`,
  OD_API_KEY: "k",
  OD_API_MODEL: "m",
});
const chunk = (delta: unknown, finish: string | null = null) => sse({ choices: [{ index: 0, delta, finish_reason: finish }] });

describe("anthropic streams", () => {
  const start = sse({ type: "message_start", message: { usage: { input_tokens: 3 } } });
  const textBlock = [
    sse({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
    sse({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "partial" } }),
  ];

  test("an error event mid-stream fails the run with the provider's words", async () => {
    await using tmp = tmpdir();
    frames = [start, ...textBlock, sse({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }, "error")];
    const events = await runApi({ cwd: tmp.path }, envFor("anthropic", tmp.path));
    expect(ofType(events, "error")[0]!.message).toBe("anthropic stream error: overloaded_error: Overloaded");
    expect(finished(events).status).toBe("failed");
  });

  test("a stream that stops without message_stop is an error; garbage lines are skipped", async () => {
    await using tmp = tmpdir();
    frames = [start, "data: {not json\n\n", ": keep-alive\n\n", ...textBlock];
    const events = await runApi({ cwd: tmp.path }, envFor("anthropic", tmp.path));
    expect(ofType(events, "text.delta").map((e) => e.text)).toEqual(["partial"]);
    expect(ofType(events, "error")[0]!.message).toContain("ended before the message was complete");
  });
});

describe("openai-compatible streams", () => {
  test("tool calls without ids or indexes (Ollama), a repeated id, reasoning, and OpenRouter's cost", async () => {
    await using tmp = tmpdir();
    const call = (args: Record<string, unknown>, id?: string) => ({
      ...(id ? { id } : {}),
      type: "function",
      function: { name: "Read", arguments: JSON.stringify(args) },
    });
    frames = [
      chunk({ reasoning: "thinking it over" }),
      chunk({ tool_calls: [call({ path: "a.txt" }), call({ path: "b.txt" }, "dup"), call({ path: "c.txt" }, "dup")] }),
      chunk({}, "tool_calls"),
      sse({ choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, cost: 0.0012, prompt_tokens_details: { cached_tokens: 4 } } }),
      sse("[DONE]"),
    ];
    // One turn is allowed: the calls are run and answered, then the limit ends the run.
    const events = await runApi({ cwd: tmp.path }, { ...envFor("openai", tmp.path), OD_API_MAX_TURNS: "1" });
    const calls = ofType(events, "tool.call");
    expect(calls.map((c) => c.input)).toEqual([{ path: "a.txt" }, { path: "b.txt" }, { path: "c.txt" }]);
    expect(new Set(calls.map((c) => c.id)).size).toBe(3);
    expect(calls[1]!.id).toBe("dup");
    expect(ofType(events, "tool.result").map((r) => r.id)).toEqual(calls.map((c) => c.id));
    expect(
      ofType(events, "thinking.delta")
        .map((e) => e.text)
        .join(""),
    ).toBe("thinking it over");
    expect(ofType(events, "usage")[0]).toMatchObject({ source: "turn", inputTokens: 10, outputTokens: 5, cacheRead: 4, costUsd: 0.0012 });
    expect(ofType(events, "usage").at(-1)).toMatchObject({ source: "run", costUsd: 0.0012 });
    expect(ofType(events, "error")[0]!.message).toContain("Stopped after 1 model turns");
  });

  test("an error object in the stream, and a stream that just ends, are errors", async () => {
    await using tmp = tmpdir();
    frames = [chunk({ content: "hi" }), sse({ error: { message: "Rate limit exceeded: free-models-per-day", code: 429 } })];
    const limited = await runApi({ cwd: tmp.path }, envFor("openai", tmp.path));
    expect(ofType(limited, "error")[0]).toMatchObject({ code: "RATE_LIMITED" });
    frames = [chunk({ content: "hi" })];
    const cut = await runApi({ cwd: tmp.path }, envFor("openai", tmp.path));
    expect(ofType(cut, "error")[0]!.message).toContain("ended before the answer was complete");
  });
});

describe("message mapping", () => {
  const conversation: Message[] = [
    { role: "user", content: [{ type: "text", text: "first" }] },
    { role: "user", content: [{ type: "text", text: "again" }] },
    {
      role: "assistant",
      content: [
        { type: "thinking", text: "unsigned" },
        { type: "thinking", text: "signed", signature: "sig" },
        { type: "text", text: "calling" },
        { type: "tool_use", id: "t1", name: "Read", input: { path: "a" } },
      ],
    },
    {
      role: "user",
      content: [
        { type: "tool_result", id: "t1", output: "nope", isError: true },
        { type: "text", text: "and now?" },
      ],
    },
    { role: "assistant", content: [] },
  ];

  test("anthropic: same-role messages merge, unsigned thinking and empty messages are dropped", () => {
    expect(anthropicWire(conversation)).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "first" },
          { type: "text", text: "again" },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "signed", signature: "sig" },
          { type: "text", text: "calling" },
          { type: "tool_use", id: "t1", name: "Read", input: { path: "a" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1", content: "nope", is_error: true },
          { type: "text", text: "and now?" },
        ],
      },
    ]);
  });

  test("openai: tool results come right after the call, before the user's text; thinking stays home", () => {
    expect(openaiWire(conversation)).toEqual([
      { role: "user", content: "first" },
      { role: "user", content: "again" },
      {
        role: "assistant",
        content: "calling",
        tool_calls: [{ id: "t1", type: "function", function: { name: "Read", arguments: '{"path":"a"}' } }],
      },
      { role: "tool", tool_call_id: "t1", content: "Error: nope" },
      { role: "user", content: "and now?" },
    ]);
  });
});
