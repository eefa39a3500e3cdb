import { describe, expect, test } from "bun:test";
import {
  type Calls,
  call,
  classify,
  errorResponse,
  type Incoming,
  METHOD_NOT_FOUND,
  newCalls,
  notification,
  readError,
  request,
  response,
  settle,
} from "../../../src/core/protocols/jsonrpc.ts";

/** Fixture tables, the way ESLint's RuleTester runs rules: each row is an input and what it must become. */

const classifyCases: Array<[string, unknown, Incoming]> = [
  ["a result", { jsonrpc: "2.0", id: 1, result: { a: 1 } }, { kind: "response", id: 1, result: { a: 1 } }],
  ["a result of null", { jsonrpc: "2.0", id: 3, result: null }, { kind: "response", id: 3, result: null }],
  [
    "an error",
    { jsonrpc: "2.0", id: 2, error: { code: -32000, message: "auth required" } },
    { kind: "response", id: 2, result: undefined, error: { code: -32000, text: "auth required" } },
  ],
  // An error that is not an object is no envelope: the response reads as a success.
  ["an error that is a string", { id: 2, error: "boom" }, { kind: "response", id: 2, result: undefined }],
  ["a string id, kept as sent", { id: "7", result: {} }, { kind: "response", id: "7", result: {} }],
  ["a null id", { id: null, result: {} }, { kind: "response", id: null, result: {} }],
  [
    "a request",
    { jsonrpc: "2.0", id: "req-1", method: "session/request_permission", params: { x: 1 } },
    { kind: "request", id: "req-1", method: "session/request_permission", params: { x: 1 } },
  ],
  [
    "a request with id 0",
    { id: 0, method: "fs/read_text_file" },
    { kind: "request", id: 0, method: "fs/read_text_file", params: undefined },
  ],
  [
    "a notification",
    { jsonrpc: "2.0", method: "session/update", params: { update: {} } },
    { kind: "notification", method: "session/update", params: { update: {} } },
  ],
  ["no jsonrpc field is still framing", { method: "ping" }, { kind: "notification", method: "ping", params: undefined }],
  ["a method that is not a string, with an id, is a response", { id: 4, method: 5 }, { kind: "response", id: 4, result: undefined }],
  ["neither method nor id", { jsonrpc: "2.0", result: {} }, { kind: "garbage" }],
  ["a method that is not a string, no id", { method: 5 }, { kind: "garbage" }],
  ["an array", [{ id: 1, result: {} }], { kind: "garbage" }],
  ["a string", "Loading...", { kind: "garbage" }],
  ["null", null, { kind: "garbage" }],
  ["a number", 42, { kind: "garbage" }],
];

describe("classify: what the peer sent, by its frame", () => {
  for (const [name, record, want] of classifyCases) test(name, () => expect(classify(record)).toEqual(want));
});

const errorCases: Array<[string, unknown, ReturnType<typeof readError>]> = [
  ["message and code", { code: -32601, message: "Method not found" }, { code: -32601, text: "Method not found" }],
  ["no message", { code: 1 }, { code: 1, text: "error" }],
  ["a message that is not a string", { message: 5 }, { code: undefined, text: "error" }],
  ["a code that is not a number", { code: "E", message: "m" }, { code: undefined, text: "m" }],
  ["object data shown as JSON", { message: "failed", data: { reason: "quota" } }, { code: undefined, text: 'failed ({"reason":"quota"})' }],
  ["string data shown quoted", { message: "failed", data: "try later" }, { code: undefined, text: 'failed ("try later")' }],
  // Only objects and strings say something a person can use; other data is left out.
  ["array data left out", { message: "failed", data: [1, 2] }, { code: undefined, text: "failed" }],
  ["number data left out", { message: "failed", data: 3 }, { code: undefined, text: "failed" }],
  ["an empty envelope", {}, { code: undefined, text: "error" }],
  ["a string is no envelope", "boom", undefined],
  ["null is no envelope", null, undefined],
  ["an array is no envelope", [{ message: "x" }], undefined],
  ["absent", undefined, undefined],
];

describe("readError: an error envelope as people read it", () => {
  for (const [name, error, want] of errorCases) test(name, () => expect(readError(error)).toEqual(want));
});

const frameCases: Array<[string, unknown, unknown]> = [
  ["request", request(3, "session/new", { cwd: "/w" }), { jsonrpc: "2.0", id: 3, method: "session/new", params: { cwd: "/w" } }],
  [
    "notification",
    notification("session/cancel", { sessionId: "s" }),
    { jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "s" } },
  ],
  ["response", response("req-1", { outcome: "cancelled" }), { jsonrpc: "2.0", id: "req-1", result: { outcome: "cancelled" } }],
  [
    "error response",
    errorResponse(9, METHOD_NOT_FOUND, "od does not provide fs/read_text_file"),
    { jsonrpc: "2.0", id: 9, error: { code: -32601, message: "od does not provide fs/read_text_file" } },
  ],
];

describe("frames as they go on the wire", () => {
  // Serialized, so the field order is checked too: the wire is what the agent reads.
  for (const [name, frame, want] of frameCases) test(name, () => expect(JSON.stringify(frame)).toBe(JSON.stringify(want)));
});

describe("the pending-request table", () => {
  test("ids count up from 1; each answer takes its purpose once; stray ids change nothing", () => {
    const calls: Calls<string> = newCalls();
    expect(call(calls, "init", "initialize", {})).toEqual({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
    expect(call(calls, "load", "session/load", { sessionId: "s" })).toMatchObject({ id: 2, method: "session/load" });
    // Each row: the id an answer carries, and the purpose it settles (undefined: not ours, or already answered).
    const rows: Array<[unknown, string | undefined]> = [
      [3, undefined],
      [0, undefined],
      [-1, undefined],
      [1.5, undefined],
      ["1", undefined],
      [null, undefined],
      [undefined, undefined],
      [Number.NaN, undefined],
      [2, "load"],
      [2, undefined],
      [1, "init"],
      [1, undefined],
    ];
    for (const [id, want] of rows) expect({ id, got: settle(calls, id) }).toEqual({ id, got: want });
    expect(calls.pending.size).toBe(0);
    expect(call(calls, "next", "session/prompt", {}).id).toBe(3);
  });
});
