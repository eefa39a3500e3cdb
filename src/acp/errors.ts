import { RequestError } from "@agentclientprotocol/sdk";
import { type ErrorCode, OdError } from "../core/contract/errors.ts";
import { protocolHint } from "./hints.ts";

/**
 * od's error codes as JSON-RPC error codes: ACP's own where it has one (-32000 authentication
 * required, -32002 resource not found), invalid params for what the request got wrong, and
 * internal error for the rest. The data always carries od's own code, hint and retryable, so a
 * client can show the hint and tell a rate limit from a crash; message and hint in ACP's terms
 * (session/new, not `--resume`: hints.ts).
 */
const RPC: Partial<Record<ErrorCode, number>> = {
  AGENT_AUTH_REQUIRED: -32000,
  RUN_NOT_FOUND: -32002,
  INVALID_REQUEST: -32602,
  AGENT_UNKNOWN: -32602,
  MODEL_NOT_AVAILABLE: -32602,
  AGENT_PROMPT_TOO_LARGE: -32602,
};

export function rpcError(err: unknown): RequestError {
  if (err instanceof RequestError) return err;
  const e = OdError.from(err);
  return new RequestError(RPC[e.code] ?? -32603, protocolHint(e.message), {
    code: e.code,
    hint: protocolHint(e.hint),
    retryable: e.retryable,
  });
}

/** A handler whose throws reach the client as od's errors (code, hint) rather than bare messages. */
export function withOdErrors<A extends unknown[], R>(handler: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return await handler(...args);
    } catch (err) {
      throw rpcError(err);
    }
  };
}

/** The error a failed run ends its prompt with: its first error event, or a plain failure. */
export function runFailure(first: { code: ErrorCode; message: string; hint?: string } | undefined, agent: string): RequestError {
  return rpcError(first ? new OdError(first.code, first.message, first.hint) : new OdError("AGENT_CRASHED", `${agent} failed`));
}
