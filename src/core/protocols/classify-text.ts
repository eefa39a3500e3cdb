import type { Classification } from "../contract/adapter.ts";
import { type ErrorCode, isRetryable } from "../contract/errors.ts";
import type { OdEventBody } from "../contract/events.ts";
import { matchProviderError } from "./provider-errors.ts";
import { redact } from "./redact.ts";

/**
 * Classifies an agent's own error text (a provider message, a stderr line)
 * into od's codes (the table in provider-errors.ts), with a hint that names what
 * to do. Unknown text is AGENT_ERROR. The message is redacted: providers echo
 * the keys they refuse, and it becomes an event.
 */
export function classifyText(text: string, agent: { name: string; login?: string }): Classification {
  return classified(text, agent).classification;
}

function classified(text: string, agent: { name: string; login?: string }): { classification: Classification; known: boolean } {
  const message = redact(text.trim().slice(0, 2000)) || `${agent.name} reported an error`;
  const rule = matchProviderError(text);
  const code = rule?.code ?? "AGENT_ERROR";
  return { classification: { code, message, hint: rule?.hint?.(agent) ?? hintFor(code, agent) }, known: rule !== undefined };
}

export function hintFor(code: ErrorCode, agent: { name: string; login?: string }): string | undefined {
  switch (code) {
    case "AGENT_AUTH_REQUIRED":
      return agent.login ? `Log in: ${agent.login}` : `Log in to ${agent.name}, or set its API key.`;
    case "RATE_LIMITED":
      return "The provider is rate limiting; wait a moment and try again.";
    case "AGENT_PROMPT_TOO_LARGE":
      return "Shorten the prompt or the conversation, or start a new session.";
    case "MODEL_NOT_AVAILABLE":
      return `Pick a model ${agent.name} offers: \`od models --agent <id>\` lists them.`;
    default:
      return undefined;
  }
}

/** Failures that pass on their own: an overloaded or failing server, a dropped connection. */
const TRANSIENT =
  /\b50[0-4]\b|\b529\b|overloaded|service unavailable|bad gateway|gateway time-?out|internal server error|ECONNRESET|ECONNREFUSED|socket hang up|connection (reset|closed|refused)|network error/i;

export function isTransientText(text: string): boolean {
  return TRANSIENT.test(text);
}

/** An `error` event body for an agent's own error text. */
export function errorFromText(text: string, agent: { name: string; login?: string }): Extract<OdEventBody, { type: "error" }> {
  const { classification: c, known } = classified(text, agent);
  // Text no rule knows may still be a server having a bad moment; a known AGENT_ERROR (an empty account) never passes on its own.
  const retryable = isRetryable(c.code) || (!known && isTransientText(text));
  return { type: "error", code: c.code, message: c.message, hint: c.hint, retryable };
}

/** A classification from a stderr tail when its last line is recognisable (auth, rate limit, size, model, billing); else undefined. */
export function classifyStderr(tail: string, agent: { name: string; login?: string }): Classification | undefined {
  const last = tail.trim().split("\n").pop()?.trim();
  if (!last) return undefined;
  const c = classified(last, agent);
  return c.known ? c.classification : undefined;
}
