/**
 * `od acp` (compiled) under both generations of ACP's SDK: the current `@agentclientprotocol/sdk`
 * client and `@zed-industries/agent-client-protocol` 0.4.5's (earlier Zed builds). One session each:
 * a prompt whose agent shows a tool call and asks to run it, the client's "allow", the agent's
 * write, then session/load replaying it all. Every message od sends holds to the schema of the
 * generation that asked; the permission request names the call the client was shown, its rawInput
 * is the agent's object (bounded, never a cut string), and every location is absolute.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  client,
  ndJsonStream,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
} from "@agentclientprotocol/sdk";
import { DIST_OD, FAKE_ACP, installFake, tmpdir } from "../helpers.ts";
import { current, type Generation, locationPaths, problems, SDK_045, tapped, zed045 } from "./generations.ts";

type Msg = Record<string, any>;
/** A connected client of one generation: its requests by ACP method name, and what od sent it. */
interface Connected {
  request(method: string, params: Msg): Promise<Msg>;
  asked: RequestPermissionRequest[];
  updates: SessionNotification[];
}
type Connect = (t: ReturnType<typeof tapped>, answer: (req: RequestPermissionRequest) => RequestPermissionResponse) => Promise<Connected>;

const connectCurrent: Connect = async (t, answer) => {
  const asked: RequestPermissionRequest[] = [];
  const updates: SessionNotification[] = [];
  const app = client({ name: "od-test" })
    .onNotification("session/update", ({ params }) => void updates.push(params))
    .onRequest("session/request_permission", async ({ params }) => (asked.push(params), answer(params)));
  const { agent } = app.connect(ndJsonStream(t.output, t.input));
  return { request: (method, params) => agent.request(method as "initialize", params as never) as Promise<Msg>, asked, updates };
};

/** 0.4.5's client has a method per request, and validates what it is sent with its own zod schemas. */
const connect045: Connect = async (t, answer) => {
  const sdk = await import(join(SDK_045!, "acp.js"));
  const asked: RequestPermissionRequest[] = [];
  const updates: SessionNotification[] = [];
  const handler = {
    requestPermission: async (params: RequestPermissionRequest) => (asked.push(params), answer(params)),
    sessionUpdate: async (params: SessionNotification) => void updates.push(params),
  };
  const conn = new sdk.ClientSideConnection(() => handler, sdk.ndJsonStream(t.output, t.input));
  const byMethod: Record<string, string> = {
    initialize: "initialize",
    "session/new": "newSession",
    "session/load": "loadSession",
    "session/prompt": "prompt",
    "session/set_mode": "setSessionMode",
  };
  return { request: (method, params) => conn[byMethod[method]!](params), asked, updates };
};

const allow = (req: RequestPermissionRequest): RequestPermissionResponse => ({
  outcome: { outcome: "selected", optionId: req.options.find((o) => o.kind === "allow_once")!.optionId },
});

/** The agent (test/bin/fake-acp.ts as `qwen`): shows call-1 (relative paths, a large input), asks for it, writes on allow. */
function agentScript(cwd: string) {
  const rawInput = { file_path: "hello.txt", content: `${"x".repeat(200_000)}`, mode: 420 };
  const call = { toolCallId: "call-1", title: "Write hello.txt", kind: "edit", locations: [{ path: "hello.txt" }], rawInput };
  const options = [
    { optionId: "yes", name: "Allow", kind: "allow_once" },
    { optionId: "no", name: "Reject", kind: "reject_once" },
  ];
  return {
    loadSession: true,
    turn: [
      { update: { sessionUpdate: "tool_call", status: "pending", ...call } },
      { permission: { toolCall: call, options }, then: [{ write: { path: join(cwd, "hello.txt"), text: "hi" } }] },
      { update: { sessionUpdate: "tool_call_update", toolCallId: "call-1", status: "completed" } },
      { update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "wrote it" } } },
    ],
  };
}

const generations: Array<[string, () => Promise<Generation>, Connect, string | undefined]> = [
  ["@agentclientprotocol/sdk (current)", current, connectCurrent, undefined],
  [
    "@zed-industries/agent-client-protocol 0.4.5",
    () => zed045(SDK_045!),
    connect045,
    SDK_045
      ? undefined
      : "not installed: npm install --prefix ~/.cache/od-acp-sdk-045 @zed-industries/agent-client-protocol@0.4.5 (.ci/run does)",
  ],
];

describe("the schema check itself", () => {
  const ask = { jsonrpc: "2.0", id: 0, method: "session/request_permission" };
  const toolCall = { toolCallId: "c", title: "Write", kind: "edit", status: "pending" };
  const update = (u: Msg) => ({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", update: u } });
  const options = [{ optionId: "allow", name: "Allow", kind: "allow_once" }];
  const cases: Array<[string, Msg[], Msg[], boolean, boolean]> = [
    [
      "a permission request with an object rawInput",
      [{ ...ask, params: { sessionId: "s", toolCall: { ...toolCall, rawInput: { a: 1 } }, options } }],
      [],
      true,
      true,
    ],
    [
      "rawInput as a string",
      [{ ...ask, params: { sessionId: "s", toolCall: { ...toolCall, rawInput: '{"a":' }, options } }],
      [],
      true,
      false,
    ],
    [
      "a location without a path",
      [update({ sessionUpdate: "tool_call", toolCallId: "c", title: "t", locations: [{ line: 1 }] })],
      [],
      false,
      false,
    ],
    ["a late config_option_update", [update({ sessionUpdate: "config_option_update", configOptions: [] })], [], true, false],
    [
      "an answer to session/new",
      [{ jsonrpc: "2.0", id: 1, result: { sessionId: "s" } }],
      [{ jsonrpc: "2.0", id: 1, method: "session/new" }],
      true,
      true,
    ],
    ["an answer no request asked for", [{ jsonrpc: "2.0", id: 9, result: {} }], [], false, false],
    ["an error", [{ jsonrpc: "2.0", id: 1, error: { code: -32602, message: "no" } }], [], true, true],
  ];
  for (const [name, sent, received, inCurrent, in045] of cases)
    test(name, async () => {
      expect(problems(await current(), sent, received)).toHaveLength(inCurrent ? 0 : 1);
      if (SDK_045) expect(problems(await zed045(SDK_045), sent, received)).toHaveLength(in045 ? 0 : 1);
    });
});

describe("od acp under each ACP SDK generation", () => {
  for (const [name, schemas, connect, missing] of generations) {
    if (missing) {
      test.skip(`${name}: ${missing}`, () => {});
      continue;
    }
    test(`${name}: allow takes effect, and every message od sends holds to its schema`, async () => {
      await using tmp = tmpdir();
      const fake = installFake(tmp.path, "qwen", agentScript(tmp.path), FAKE_ACP);
      // The agent's model catalog cached first: session/new then has it at once, and sends no late
      // config_option_update (a kind of update 0.4.5 does not know; see the test below).
      expect(Bun.spawnSync([DIST_OD, "models", "--agent", "qwen-acp", "--json"], { env: fake.env, stdin: "ignore" }).exitCode).toBe(0);
      const t = tapped([DIST_OD, "acp", "--agent", "qwen-acp"], fake.env);
      const c = await connect(t, allow);
      await c.request("initialize", { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false } } });
      const { sessionId } = await c.request("session/new", { cwd: tmp.path, mcpServers: [] });
      await c.request("session/set_mode", { sessionId, modeId: "edit" });
      const done = await c.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "write hello.txt" }] });
      expect(done.stopReason).toBe("end_turn");
      expect(existsSync(join(tmp.path, "hello.txt")) && readFileSync(join(tmp.path, "hello.txt"), "utf8")).toBe("hi");

      // The question is about the call the client was shown, in the agent's own terms, with absolute paths.
      const shown = c.updates.map((n) => n.update).find((u) => u.sessionUpdate === "tool_call");
      expect(shown).toMatchObject({ toolCallId: "call-1", locations: [{ path: join(tmp.path, "hello.txt") }] });
      expect(c.asked).toHaveLength(1);
      // ...and shown before the question: the client has the call to put it on.
      const at = (pred: (m: Msg) => boolean) => t.sent.findIndex(pred);
      expect(at((m) => m.params?.update?.sessionUpdate === "tool_call")).toBeLessThan(at((m) => m.method === "session/request_permission"));
      const { toolCall } = c.asked[0]!;
      expect(toolCall.toolCallId).toBe("call-1");
      expect(toolCall.locations).toEqual([{ path: join(tmp.path, "hello.txt") }]);
      expect(toolCall.rawInput).toMatchObject({ file_path: "hello.txt", mode: 420 });
      expect(JSON.stringify(toolCall.rawInput).length).toBeLessThan(40_000);

      await c.request("session/load", { sessionId, cwd: tmp.path, mcpServers: [] });
      expect(c.updates.filter((n) => n.update.sessionUpdate === "tool_call")).toHaveLength(2); // the turn, and its replay
      expect(t.sent.filter((m) => m.method === "session/update").length).toBe(7); // 3 in the turn, 4 replayed (its prompt too)
      expect(problems(await schemas(), t.sent, t.received)).toEqual([]);
      // Every location od sent (the turn's, the question's, the replay's) is absolute, though the agent's were not.
      expect(new Set(locationPaths(t.sent))).toEqual(new Set([join(tmp.path, "hello.txt")]));
      t.child.stdin.end();
      expect(await t.exited).toBe(0);
    }, 60_000);
  }
});
