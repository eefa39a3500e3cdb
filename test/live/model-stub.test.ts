// Offline tests of the loopback model stub itself: plain fetch against each API x scenario.
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { DEFAULT_FINAL_TEXT, DEFAULT_TEXT, type ModelStub, startModelStub } from "./model-stub.ts";

/** OpenAI's 401 for a rejected key (developers.openai.com/docs/guides/error-codes), as chat completions and responses answer it. */
const OPENAI_BAD_KEY = {
  message: "Incorrect API key provided: od-live-***-key. You can find your API key at https://platform.openai.com/account/api-keys.",
  type: "invalid_request_error",
  param: null,
  code: "invalid_api_key",
};

const stub: ModelStub = await startModelStub();
afterAll(() => stub.stop());
beforeEach(() => stub.script({ kind: "chat" }));

type Ev = { event?: string; data: any };

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(stub.url + path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

function parseSse(text: string): Ev[] {
  return text
    .split("\n\n")
    .filter((b) => b.trim())
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? "";
      return { event, data: data === "[DONE]" ? data : JSON.parse(data) };
    });
}

async function sse(path: string, body: unknown): Promise<Ev[]> {
  const res = await post(path, body);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/event-stream");
  return parseSse(await res.text());
}

const user = (content: unknown) => ({ role: "user", content });
const SYSTEM_CWD = "Primary working directory: /tmp/od-work\n";

describe("anthropic messages", () => {
  const tools = [{ name: "Write", input_schema: { properties: { file_path: {}, content: {} } } }];
  const base = { model: "claude-x", max_tokens: 100, stream: true, system: SYSTEM_CWD };

  test("chat streams text deltas (with ?beta=true and without /v1)", async () => {
    for (const path of ["/v1/messages?beta=true", "/messages"]) {
      const evs = await sse(path, { ...base, messages: [user("Say hi")] });
      expect(evs.map((e) => e.event)).toEqual([
        "message_start",
        "ping",
        "content_block_start",
        "content_block_delta",
        "content_block_delta",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
      ]);
      expect(evs.map((e) => e.data.delta?.text ?? "").join("")).toBe(DEFAULT_TEXT);
    }
    expect(stub.requests.at(-1)).toMatchObject({ api: "anthropic", path: "/messages", lastUserText: "Say hi" });
  });

  test("non-streaming answer, count_tokens, auth error", async () => {
    const res = await post("/v1/messages", { ...base, stream: false, messages: [user("x")] });
    expect(await res.json()).toMatchObject({ type: "message", content: [{ type: "text", text: DEFAULT_TEXT }] });
    expect(await (await post("/v1/messages/count_tokens", { messages: [] })).json()).toHaveProperty("input_tokens");
    stub.script({ kind: "auth-error" });
    const bad = await post("/v1/messages", { ...base, messages: [user("x")] }, { "x-api-key": "sk-secret" });
    expect(bad.status).toBe(401);
    // Anthropic's own 401 for a rejected key (docs.claude.com/en/api/errors).
    expect(await bad.json()).toMatchObject({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } });
    expect(stub.requests.at(-1)?.headers["x-api-key"]).toBe("<redacted:9>");
  });

  test("tool-write calls Write with an absolute path, then answers finalText", async () => {
    stub.script({ kind: "tool-write", file: "hello.txt", content: "hi" });
    const evs = await sse("/v1/messages", {
      ...base,
      tools,
      messages: [
        user([
          { type: "text", text: "<system-reminder>ctx</system-reminder>" },
          { type: "text", text: "make it" },
        ]),
      ],
    });
    expect(evs[2]?.data.content_block).toMatchObject({ type: "tool_use", name: "Write" });
    const json = evs.map((e) => e.data.delta?.partial_json ?? "").join("");
    expect(JSON.parse(json)).toEqual({ file_path: "/tmp/od-work/hello.txt", content: "hi" });
    expect(evs.at(-2)?.data.delta.stop_reason).toBe("tool_use");
    expect(stub.requests.at(-1)).toMatchObject({ lastUserText: "make it", toolNames: ["Write"], answered: "tool:Write" });
    const result = user([{ type: "tool_result", tool_use_id: "t1", content: "ok" }]);
    const done = await sse("/v1/messages", { ...base, tools, messages: [user("make it"), { role: "assistant", content: [] }, result] });
    expect(done.map((e) => e.data.delta?.text ?? "").join("")).toBe(DEFAULT_FINAL_TEXT);
  });

  test("thinking streams a thinking block with signature_delta first", async () => {
    stub.script({ kind: "thinking", thinking: "hmm", text: "answer" });
    const evs = await sse("/v1/messages", {
      ...base,
      thinking: { type: "adaptive" },
      output_config: { effort: "low" },
      messages: [user("q")],
    });
    expect(evs[2]?.data.content_block.type).toBe("thinking");
    expect(evs.some((e) => e.data.delta?.type === "signature_delta")).toBe(true);
    expect(evs.map((e) => e.data.delta?.text ?? "").join("")).toBe("answer");
    expect(stub.requests.at(-1)).toMatchObject({ effort: "low", thinking: { type: "adaptive" } });
  });
});

describe("openai chat completions", () => {
  const base = { model: "gpt-x", stream: true, stream_options: { include_usage: true } };

  test("chat with usage chunk and [DONE]; non-streaming", async () => {
    const evs = await sse("/v1/chat/completions", { ...base, reasoning_effort: "high", messages: [user("hi")] });
    expect(evs.map((e) => e.data.choices?.[0]?.delta?.content ?? "").join("")).toBe(DEFAULT_TEXT);
    expect(evs.at(-2)?.data.usage.total_tokens).toBeGreaterThan(0);
    expect(evs.at(-1)?.data).toBe("[DONE]");
    expect(stub.requests.at(-1)).toMatchObject({ api: "openai-chat", effort: "high", model: "gpt-x" });
    const res = await post("/chat/completions", { model: "m", messages: [user("hi")] });
    expect(await res.json()).toMatchObject({ object: "chat.completion", choices: [{ message: { content: DEFAULT_TEXT } }] });
  });

  test("tool-write uses pi's write{path,content}; copilot's create{path,file_text}; none offered", async () => {
    stub.script({ kind: "tool-write", file: "/abs/f.txt", content: "c", finalText: "FIN" });
    const fn = (name: string, props: string[]) => ({
      type: "function",
      function: { name, parameters: { properties: Object.fromEntries(props.map((p) => [p, {}])) } },
    });
    for (const [tool, args] of [
      [fn("write", ["path", "content"]), { path: "/abs/f.txt", content: "c" }],
      [fn("create", ["path", "file_text"]), { path: "/abs/f.txt", file_text: "c" }],
    ] as const) {
      const evs = await sse("/v1/chat/completions", { ...base, tools: [fn("read", ["path"]), tool], messages: [user("go")] });
      const calls = evs.flatMap((e) => e.data.choices?.[0]?.delta?.tool_calls ?? []);
      expect(calls[0].function.name).toBe(tool.function.name);
      expect(JSON.parse(calls.map((c: any) => c.function.arguments).join(""))).toEqual(args);
      expect(evs.find((e) => e.data.choices?.[0]?.finish_reason)?.data.choices[0].finish_reason).toBe("tool_calls");
    }
    const after = await sse("/v1/chat/completions", {
      ...base,
      messages: [user("go"), { role: "assistant", tool_calls: [] }, { role: "tool", content: "ok" }],
    });
    expect(after.map((e) => e.data.choices?.[0]?.delta?.content ?? "").join("")).toBe("FIN");
    const ro = await sse("/v1/chat/completions", { ...base, tools: [fn("read", ["path"])], messages: [user("go")] });
    expect(ro.map((e) => e.data.choices?.[0]?.delta?.content ?? "").join("")).toContain("No write tool");
  });

  test('tool-write resolves a relative file against qwen\'s "working in the directory" line', async () => {
    stub.script({ kind: "tool-write", file: "f.txt", content: "c" });
    const tool = { type: "function", function: { name: "write_file", parameters: { properties: { file_path: {}, content: {} } } } };
    const system = { role: "system", content: "I'm currently working in the directory: /tmp/qwen-work\nHere is the folder structure" };
    const evs = await sse("/v1/chat/completions", { ...base, tools: [tool], messages: [system, user("go")] });
    const args = evs
      .flatMap((e) => e.data.choices?.[0]?.delta?.tool_calls ?? [])
      .map((c: any) => c.function.arguments)
      .join("");
    expect(JSON.parse(args)).toEqual({ file_path: "/tmp/qwen-work/f.txt", content: "c" });
  });

  test("thinking as reasoning_content; auth error shape", async () => {
    stub.script({ kind: "thinking", thinking: "because", text: "ok" });
    const evs = await sse("/v1/chat/completions", { ...base, messages: [user("q")] });
    expect(evs.map((e) => e.data.choices?.[0]?.delta?.reasoning_content ?? "").join("")).toBe("because");
    stub.script({ kind: "auth-error" });
    const res = await post("/v1/chat/completions", { ...base, messages: [user("q")] });
    expect(res.status).toBe(401);
    // OpenAI's own 401: the masked key echoed back, no status code in the message (what kilo passes on over ACP).
    expect(await res.json()).toEqual({ error: OPENAI_BAD_KEY });
  });
});

describe("openai responses", () => {
  const base = { model: "gpt-r", stream: true, reasoning: { effort: "medium", summary: "auto" } };

  test("chat event sequence ends with response.completed and usage", async () => {
    const evs = await sse("/v1/responses", { ...base, input: [{ role: "user", content: [{ type: "input_text", text: "hi" }] }] });
    const types = evs.map((e) => e.event);
    expect(types.slice(0, 3)).toEqual(["response.created", "response.in_progress", "response.output_item.added"]);
    expect(types.at(-1)).toBe("response.completed");
    expect(
      evs
        .filter((e) => e.event === "response.output_text.delta")
        .map((e) => e.data.delta)
        .join(""),
    ).toBe(DEFAULT_TEXT);
    expect(evs.at(-1)?.data.response.usage.total_tokens).toBeGreaterThan(0);
    expect(stub.requests.at(-1)).toMatchObject({ api: "openai-responses", lastUserText: "hi", effort: "medium" });
  });

  test("tool-write (opencode write{filePath,content}), then final text after function_call_output", async () => {
    stub.script({ kind: "tool-write", file: "/w/x.txt", content: "c" });
    const tools = [{ type: "function", name: "write", parameters: { properties: { filePath: {}, content: {} } } }];
    const evs = await sse("/v1/responses", { ...base, tools, input: "go" });
    const done = evs.find((e) => e.event === "response.function_call_arguments.done");
    expect(JSON.parse(done?.data.arguments)).toEqual({ filePath: "/w/x.txt", content: "c" });
    expect(evs.at(-1)?.data.response.output[0]).toMatchObject({ type: "function_call", name: "write" });
    const after = await sse("/v1/responses", {
      ...base,
      tools,
      input: [
        { role: "user", content: "go" },
        { type: "function_call_output", call_id: "c", output: "ok" },
      ],
    });
    expect(
      after
        .filter((e) => e.event === "response.output_text.delta")
        .map((e) => e.data.delta)
        .join(""),
    ).toBe(DEFAULT_FINAL_TEXT);
  });

  test("tool-write through codex's freeform apply_patch: a custom_tool_call carrying an Add File patch", async () => {
    stub.script({ kind: "tool-write", file: "hello.txt", content: "a\nb\n" });
    const tools = [{ type: "custom", name: "apply_patch", format: { type: "grammar" } }];
    const evs = await sse("/v1/responses", { ...base, tools, input: [{ role: "user", content: "<cwd>/w</cwd> go" }] });
    const done = evs.find((e) => e.event === "response.custom_tool_call_input.done");
    expect(done?.data.input).toBe("*** Begin Patch\n*** Add File: /w/hello.txt\n+a\n+b\n*** End Patch");
    expect(evs.at(-1)?.data.response.output[0]).toMatchObject({ type: "custom_tool_call", name: "apply_patch", input: done?.data.input });
    const after = await sse("/v1/responses", {
      ...base,
      tools,
      input: [
        { role: "user", content: "go" },
        { type: "custom_tool_call_output", call_id: "c", output: "ok" },
      ],
    });
    expect(
      after
        .filter((e) => e.event === "response.output_text.delta")
        .map((e) => e.data.delta)
        .join(""),
    ).toBe(DEFAULT_FINAL_TEXT);
  });

  test("thinking as reasoning summary; non-streaming; auth error", async () => {
    stub.script({ kind: "thinking", thinking: "deep", text: "t" });
    const evs = await sse("/v1/responses", { ...base, input: "q" });
    expect(
      evs
        .filter((e) => e.event === "response.reasoning_summary_text.delta")
        .map((e) => e.data.delta)
        .join(""),
    ).toBe("deep");
    const res = await post("/responses", { model: "m", input: "q" });
    expect(await res.json()).toMatchObject({
      object: "response",
      status: "completed",
      output: [{ type: "reasoning" }, { type: "message" }],
    });
    stub.script({ kind: "auth-error" });
    const bad = await post("/v1/responses", { ...base, input: "q" });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ error: OPENAI_BAD_KEY });
  });
});

describe("gemini", () => {
  const path = (m: string, method: string) => `/v1beta/models/${m}:${method}`;
  const contents = (text: string) => [{ role: "user", parts: [{ text }] }];

  test("streamGenerateContent over SSE, as a JSON array, and generateContent", async () => {
    const evs = await sse(`${path("gemini-x", "streamGenerateContent")}?alt=sse`, { contents: contents("hi") });
    expect(evs.map((e) => e.data.candidates[0].content.parts[0].text).join("")).toBe(DEFAULT_TEXT);
    expect(evs.at(-1)?.data.candidates[0].finishReason).toBe("STOP");
    expect(stub.requests.at(-1)).toMatchObject({ api: "gemini", model: "gemini-x", lastUserText: "hi" });
    const arr = (await (await post(path("g", "streamGenerateContent"), { contents: contents("hi") })).json()) as any[];
    expect(arr.length).toBe(3);
    const one: any = await (await post(path("g", "generateContent"), { contents: contents("hi") })).json();
    expect(one.candidates[0].content.parts[0].text).toBe(DEFAULT_TEXT);
    expect(await (await post(path("g", "countTokens"), { contents: [] })).json()).toHaveProperty("totalTokens");
  });

  test("tool-write calls write_file, then final text after functionResponse", async () => {
    stub.script({ kind: "tool-write", file: "/w/g.txt", content: "c" });
    const tools = [
      { functionDeclarations: [{ name: "write_file", parametersJsonSchema: { properties: { file_path: {}, content: {} } } }] },
    ];
    const evs = await sse(`${path("g", "streamGenerateContent")}?alt=sse`, { contents: contents("go"), tools });
    expect(evs[0]?.data.candidates[0].content.parts[0].functionCall).toMatchObject({
      name: "write_file",
      args: { file_path: "/w/g.txt", content: "c" },
    });
    const result = { role: "user", parts: [{ functionResponse: { name: "write_file", response: {} } }] };
    const after = await sse(`${path("g", "streamGenerateContent")}?alt=sse`, { contents: [...contents("go"), result], tools });
    expect(after.map((e) => e.data.candidates[0].content.parts[0].text).join("")).toBe(DEFAULT_FINAL_TEXT);
  });

  test("thinking as thought parts; auth error; JSON mode", async () => {
    stub.script({ kind: "thinking", thinking: "th", text: "x" });
    const evs = await sse(`${path("g", "streamGenerateContent")}?alt=sse`, { contents: contents("q") });
    const thoughts = evs.map((e) => e.data.candidates[0].content.parts[0]).filter((p) => p.thought);
    expect(thoughts.map((p) => p.text).join("")).toBe("th");
    expect(evs[0]?.data.candidates[0].content.parts[0].thought).toBe(true);
    stub.script({ kind: "chat" });
    const schema = { type: "object", properties: { score: { type: "integer", minimum: 1 }, why: { type: "string" } } };
    const j: any = await (
      await post(path("g", "generateContent"), {
        contents: contents("q"),
        generationConfig: { responseMimeType: "application/json", responseJsonSchema: schema },
      })
    ).json();
    expect(JSON.parse(j.candidates[0].content.parts[0].text)).toEqual({ score: 1, why: "stub" });
    stub.script({ kind: "auth-error" });
    const res = await post(`${path("g", "generateContent")}?key=secret`, { contents: contents("q") });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: {
        code: 400,
        message: "API key not valid. Please pass a valid API key.",
        status: "INVALID_ARGUMENT",
        details: [{ reason: "API_KEY_INVALID" }],
      },
    });
    expect(stub.requests.at(-1)?.query.key).toBe("<redacted:6>");
  });
});

describe("timing scenarios and misc routes", () => {
  test("slow streams token by token with a delay", async () => {
    stub.script({ kind: "slow", text: "a b c d", delayMs: 40 });
    const t0 = performance.now();
    const evs = await sse("/v1/chat/completions", { model: "m", stream: true, messages: [user("q")] });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(110);
    expect(evs.map((e) => e.data.choices?.[0]?.delta?.content).filter(Boolean)).toEqual(["a ", "b ", "c ", "d"]);
  });

  test("stall sends the first event, then nothing until the client aborts", async () => {
    stub.script({ kind: "stall" });
    const ac = new AbortController();
    const res = await fetch(`${stub.url}/v1/messages`, {
      method: "POST",
      body: JSON.stringify({ model: "m", stream: true, messages: [user("q")] }),
      signal: ac.signal,
    });
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain("message_start");
    const next = reader.read();
    const winner = await Promise.race([next.then(() => "data"), Bun.sleep(150).then(() => "silent")]);
    expect(winner).toBe("silent");
    ac.abort();
    expect(next).rejects.toThrow();
  });

  test("stop() ends a stalled stream", async () => {
    const own = await startModelStub({ scenario: { kind: "stall" } });
    const res = await fetch(`${own.url}/v1/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "m", stream: true, messages: [] }),
    });
    const body = res.text().catch(() => "closed");
    await Bun.sleep(50);
    await own.stop();
    expect(await body).toContain("chat.completion.chunk");
  });

  test("HEAD /, GET /, GET /v1/models, unknown path", async () => {
    expect((await fetch(`${stub.url}/`, { method: "HEAD" })).status).toBe(200);
    expect((await fetch(`${stub.url}/`)).status).toBe(200);
    expect(await (await fetch(`${stub.url}/v1/models`)).json()).toMatchObject({ object: "list" });
    expect((await fetch(`${stub.url}/v1/nope`, { method: "POST", body: "{}" })).status).toBe(404);
    expect(stub.requests.at(-1)).toMatchObject({ api: "other", answered: "404", path: "/v1/nope" });
  });
});
