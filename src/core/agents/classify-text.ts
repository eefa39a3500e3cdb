import { type ErrorCode, isRetryable } from "../errors.ts";
import type { OdEventBody } from "../events.ts";
import type { Classification } from "./adapter.ts";

const RULES: Array<[RegExp, ErrorCode]> = [
  [
    /\b401\b|unauthori[sz]ed|invalid[ _-]?(api[ _-]?)?key|authentication|not logged in|no api key|missing api key|no auth type is selected|please run \/login|api_key_invalid/i,
    "AGENT_AUTH_REQUIRED",
  ],
  [/\b429\b|rate[ _-]?limit|too many requests|quota/i, "RATE_LIMITED"],
  [/prompt is too long|context[ _-]length|too many tokens|maximum context/i, "AGENT_PROMPT_TOO_LARGE"],
];

/**
 * Classifies an agent's own error text (a provider message, a stderr line)
 * into od's codes, with a hint that names what to do. Unknown text is AGENT_ERROR.
 */
export function classifyText(text: string, agent: { name: string; login?: string }): Classification {
  const message = text.trim().slice(0, 2000) || `${agent.name} reported an error`;
  const code = RULES.find(([re]) => re.test(text))?.[1] ?? "AGENT_ERROR";
  return { code, message, hint: hintFor(code, agent) };
}

export function hintFor(code: ErrorCode, agent: { name: string; login?: string }): string | undefined {
  switch (code) {
    case "AGENT_AUTH_REQUIRED":
      return agent.login ? `Log in: ${agent.login}` : `Log in to ${agent.name}, or set its API key.`;
    case "RATE_LIMITED":
      return "The provider is rate limiting; wait a moment and try again.";
    case "AGENT_PROMPT_TOO_LARGE":
      return "Shorten the prompt or the conversation, or start a new session.";
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
  const c = classifyText(text, agent);
  const retryable = isRetryable(c.code) || (c.code === "AGENT_ERROR" && isTransientText(text));
  return { type: "error", code: c.code, message: c.message, hint: c.hint, retryable };
}

/** A classification from a stderr tail when its last line is recognisable (auth, rate limit, size); else undefined. */
export function classifyStderr(tail: string, agent: { name: string; login?: string }): Classification | undefined {
  const last = tail.trim().split("\n").pop()?.trim();
  if (!last) return undefined;
  const c = classifyText(last, agent);
  return c.code === "AGENT_ERROR" ? undefined : c;
}
