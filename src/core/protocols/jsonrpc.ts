import { asRecord, num, str } from "./parse-helpers.ts";

/**
 * JSON-RPC 2.0 framing, apart from what any protocol means by its messages:
 * building frames, our request ids and what each pending one was for, sorting
 * what the peer sent, and reading error envelopes. Pure: a driver keeps the
 * `Calls` in its state and the pipeline does the I/O.
 */

/** A request id as the peer sent it: echoed back verbatim in our answer. */
export type Id = string | number | null;

/** "Method not found": the answer to a request for something we do not provide. */
export const METHOD_NOT_FOUND = -32601;

export function request(id: Id, method: string, params: unknown) {
  return { jsonrpc: "2.0", id, method, params };
}

export function notification(method: string, params: unknown) {
  return { jsonrpc: "2.0", method, params };
}

export function response(id: Id, result: unknown) {
  return { jsonrpc: "2.0", id, result };
}

export function errorResponse(id: Id, code: number, message: string) {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

/** Our outgoing requests: ids count up from 1, each remembered with what its answer will mean. */
export interface Calls<P> {
  nextId: number;
  pending: Map<number, P>;
}

export function newCalls<P>(): Calls<P> {
  return { nextId: 1, pending: new Map() };
}

/** A request with the next id, recorded as pending with its purpose. */
export function call<P>(calls: Calls<P>, purpose: P, method: string, params: unknown) {
  const id = calls.nextId++;
  calls.pending.set(id, purpose);
  return request(id, method, params);
}

/**
 * The purpose of the request an answer is for, taken off the table; undefined
 * for an id we never sent or that was already answered (a stray answer).
 */
export function settle<P>(calls: Calls<P>, id: unknown): P | undefined {
  const n = num(id);
  if (n === undefined) return undefined;
  const purpose = calls.pending.get(n);
  calls.pending.delete(n);
  return purpose;
}

/** A failed request as the peer reported it; `text` is its message with any data, for people to read. */
export interface RpcError {
  code?: number;
  text: string;
}

/** The error envelope of a response; undefined when it has none (or one that is not an object). */
export function readError(error: unknown): RpcError | undefined {
  const e = asRecord(error);
  if (!e) return undefined;
  const data = asRecord(e.data) || str(e.data) ? ` (${JSON.stringify(e.data)})` : "";
  return { code: num(e.code), text: `${str(e.message) ?? "error"}${data}` };
}

/** One record from the peer, sorted by its frame's shape. */
export type Incoming =
  | { kind: "response"; id: unknown; result: unknown; error?: RpcError }
  | { kind: "request"; id: Id; method: string; params: unknown }
  | { kind: "notification"; method: string; params: unknown }
  | { kind: "garbage" };

/**
 * A method with an id is a request, without one a notification; an id without
 * a method is a response; anything else (not an object, neither field) is
 * garbage. The `jsonrpc` field is not checked: agents that omit it still work.
 */
export function classify(record: unknown): Incoming {
  const r = asRecord(record);
  if (!r) return { kind: "garbage" };
  if (typeof r.method === "string")
    return r.id === undefined
      ? { kind: "notification", method: r.method, params: r.params }
      : { kind: "request", id: r.id as Id, method: r.method, params: r.params };
  if (r.id === undefined) return { kind: "garbage" };
  const error = readError(r.error);
  return error ? { kind: "response", id: r.id, result: r.result, error } : { kind: "response", id: r.id, result: r.result };
}
