// The tools' JSON Schemas are derived from their zod inputs: the model must see exactly what it saw
// when they were written by hand, and both clients must send them where their APIs expect them.
import { afterAll, describe, expect, test } from "bun:test";
import { anthropicClient } from "../../../src/core/api/anthropic.ts";
import type { ApiConfig } from "../../../src/core/api/config.ts";
import { openaiClient } from "../../../src/core/api/openai.ts";
import { runTool, toolCallEvent, toolsFor } from "../../../src/core/api/tools.ts";
import type { Client } from "../../../src/core/api/types.ts";
import { tmpdir } from "../../helpers.ts";

const path = { type: "string", description: "File path relative to the project directory" };

/** The hand-written tool table the loop sent before the schemas were derived, verbatim. */
const HAND_WRITTEN = [
  {
    name: "Read",
    description: "Read a UTF-8 text file (at most 262144 bytes).",
    schema: { type: "object", properties: { path }, required: ["path"] },
  },
  {
    name: "Write",
    description: "Create a file, or replace its whole content. Missing parent folders are created.",
    schema: {
      type: "object",
      properties: { path, content: { type: "string", description: "The complete new content" } },
      required: ["path", "content"],
    },
  },
  {
    name: "Edit",
    description: "Replace one exact string in a file. old_string must occur exactly once; include enough context to make it unique.",
    schema: {
      type: "object",
      properties: { path, old_string: { type: "string" }, new_string: { type: "string" } },
      required: ["path", "old_string", "new_string"],
    },
  },
];

describe("a call's kind and file, from the tool's declaration", () => {
  test("Read reads, Write and Edit edit, the file its path names; a tool the loop does not have is other", () => {
    expect(toolCallEvent("c", "Read", { path: "a.txt" })).toEqual({
      type: "tool.call",
      id: "c",
      name: "Read",
      input: { path: "a.txt" },
      kind: "read",
      paths: ["a.txt"],
    });
    expect([toolCallEvent("c", "Write", { path: "b" }).kind, toolCallEvent("c", "Edit", {}).kind]).toEqual(["edit", "edit"]);
    expect(toolCallEvent("c", "Bash", { path: "x" })).toEqual({
      type: "tool.call",
      id: "c",
      name: "Bash",
      input: { path: "x" },
      kind: "other",
    });
  });
});

describe("derived tool schemas", () => {
  test("are byte for byte the hand-written ones (no $schema, no additionalProperties, same order)", () => {
    expect(JSON.stringify(toolsFor("edit"))).toBe(JSON.stringify(HAND_WRITTEN));
    expect(toolsFor("full")).toEqual(HAND_WRITTEN);
    expect(toolsFor("read-only")).toEqual([HAND_WRITTEN[0]!]);
  });

  test("unknown keys are still ignored, as the schema (no additionalProperties) tells the model", async () => {
    await using tmp = tmpdir();
    await Bun.write(`${tmp.path}/a.txt`, "x");
    expect(runTool(tmp.path, "edit", "Read", { path: "a.txt", offset: 3 })).toEqual({ isError: false, output: "x" });
  });

  test("the refusals read as they did: unknown tool, not offered, invalid input", () => {
    expect(runTool("/", "read-only", "Bash", {}).output).toBe('Refused: unknown tool "Bash"; the tools are Read');
    expect(runTool("/", "read-only", "Edit", {}).output).toBe("Refused: Edit is not available in read-only mode");
    expect(runTool("/", "edit", "Write", { path: 1 }).output).toMatch(/^Refused: invalid input for Write: path: .+; content: .+/);
  });
});

describe("the clients send the derived schemas", () => {
  let body: Record<string, unknown> = {};
  let reply = "";
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (req) => {
      body = (await req.json()) as Record<string, unknown>;
      return new Response(reply, { headers: { "content-type": "text/event-stream" } });
    },
  });
  afterAll(() => server.stop(true));
  const sse = (data: unknown) => `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;

  async function send(client: Client, provider: ApiConfig["provider"]): Promise<void> {
    const config: ApiConfig = {
      provider,
      baseUrl: `http://127.0.0.1:${server.port}${provider === "openai" ? "/v1" : ""}`,
      key: "k",
      mode: "edit",
      maxTurns: 1,
      maxTokens: 1000,
    };
    const req = { model: "m", system: "s", messages: [], tools: toolsFor("edit"), turn: 1 };
    const turn = client(req, { config, signal: new AbortController().signal, note: () => {} });
    for (let step = await turn.next(); !step.done; step = await turn.next());
  }

  test("anthropic: as input_schema", async () => {
    reply = [
      sse({ type: "message_start", message: { usage: { input_tokens: 1 } } }),
      sse({ type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 1 } }),
      sse({ type: "message_stop" }),
    ].join("");
    await send(anthropicClient, "anthropic");
    expect(body.tools).toEqual(HAND_WRITTEN.map((t) => ({ name: t.name, description: t.description, input_schema: t.schema })));
  });

  test("openai: as function parameters", async () => {
    reply = [sse({ choices: [{ index: 0, delta: { content: "ok" }, finish_reason: "stop" }] }), sse("[DONE]")].join("");
    await send(openaiClient, "openai");
    expect(body.tools).toEqual(
      HAND_WRITTEN.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.schema } })),
    );
  });
});
