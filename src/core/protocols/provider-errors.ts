import type { ErrorCode } from "../contract/errors.ts";
import { unionOf } from "./regex-union.ts";

/**
 * What a provider's error text means, as od's codes. The words are the
 * providers' own (Anthropic, OpenAI, Gemini, Vertex, Bedrock, Azure OpenAI,
 * OpenRouter, DeepSeek, Moonshot, DashScope) and the agent CLIs' around them;
 * test/fixtures/provider-errors holds a real body or message for each, with
 * where it was seen. The first rule that matches wins, so the order is part of
 * the meaning: an empty account before a rate limit (both can be a 429 that
 * says "quota"), a prompt over the per-minute budget before a rate limit,
 * a missing model before a denied permission.
 */
export interface ProviderRule {
  code: ErrorCode;
  /** What the rule recognises, for people reading the table. */
  what: string;
  pattern: RegExp;
  /** A hint of the rule's own; otherwise the code's. */
  hint?: (agent: { name: string }) => string;
}

/**
 * An account out of credit or over its spending limit is not a rate limit: a
 * retry cannot succeed and no login fixes it. It stays AGENT_ERROR (not retried,
 * not final) with a hint that says where to look.
 */
const billing = (): string =>
  "The account is out of credit or over its spending limit: check its plan and billing (a retry will not help).";

export const PROVIDER_RULES: readonly ProviderRule[] = [
  {
    what: "out of credit (OpenAI insufficient_quota, Anthropic, DeepSeek, OpenRouter, Moonshot, DashScope Arrearage)",
    code: "AGENT_ERROR",
    hint: billing,
    pattern:
      /insufficient_quota|exceeded_current_quota|credit balance is too low|insufficient (?:account )?balance|insufficient credits|requires more credits|can only afford|\bArrearage\b|account is in good standing|overdue (?:payment|account)|billing hard limit|usage limit for this billing cycle|payment required|Quota exceeded for metric:[^\n]{0,200}?\blimit: 0\b/i,
  },
  {
    what: "Google and AWS throttling, whose words can sound like billing",
    code: "RATE_LIMITED",
    pattern:
      /RESOURCE_EXHAUSTED|Resource (?:has been )?exhausted|Quota exceeded for (?:quota )?metric|gemini-api\/docs\/rate-limits|ThrottlingException|please wait before trying again/i,
  },
  {
    what: "out of quota (the plan's words)",
    code: "AGENT_ERROR",
    hint: billing,
    pattern: /exceeded your current quota|check your plan and billing/i,
  },
  {
    what: "prompt too large for the model, or for the whole per-minute budget",
    code: "AGENT_PROMPT_TOO_LARGE",
    pattern:
      /prompt is too long|context[ _-](?:length|window)|maximum context|token count[^\n]{0,40}exceeds the maximum|input token length too long|exceeded model token limit|Range of input length should be|Input is too long for requested model|Request too large for|tokens must be reduced|request_too_large|exceeds the maximum allowed number of bytes|request entity too large|too many tokens/i,
  },
  {
    what: "a CLI too old for the model",
    code: "MODEL_NOT_AVAILABLE",
    hint: (agent) => `Upgrade ${agent.name}: this model needs a newer version of it (or pick another model).`,
    pattern: /requires a newer version of/i,
  },
  {
    what: "a model the provider does not have, or not for this account",
    code: "MODEL_NOT_AVAILABLE",
    pattern:
      /model[_ ]not[_ ]found|model not exist|The model [`'"]?[^`'"\s]+[`'"]? does not exist|\bmodel [`'"][^`'"]+[`'"] (?:was )?not found|ModelNotFound|DeploymentNotFound|API deployment for this resource does not exist|is not found for API version|Publisher Model [^\n]{0,200}?not found|not_found_error[^{}]{0,30}model:|issue with the selected model|model identifier is invalid|don't have access to the model|No endpoints found|is not a valid model ID|\bmodel '[^']+' is not supported|Unavailable model|Not found the model|\b(?:unknown|invalid) model\b/i,
  },
  {
    what: "a rejected or missing login or key",
    code: "AGENT_AUTH_REQUIRED",
    pattern:
      /\b401\b(?!:\d)|unauthori[sz]ed|unauthenticated|invalid[ _-]?(?:x-)?api[ _-]?key|incorrect[ _-]api[ _-]key|API[ _-]?key not valid|API_KEY_INVALID|InvalidApiKey|invalid API-key|API key (?:appears to be invalid|expired)|authentication(?:_error| (?:fails?|failed|required|error))|invalid_authentication|invalid authentication|failed to authenticate|\bauth (?:failed|required)\b|not logged in|login required|please run \/login|no auth type is selected|no api key|missing api key|no auth credentials|User not found\.|invalid subscription key|security token included in the request is (?:invalid|expired)|UnrecognizedClientException|InvalidClientTokenId|ExpiredToken|credentials? (?:(?:has|have) )?expired|expired credentials?|invalid access token|token expired|not authorized to (?:perform|invoke)|PERMISSION_DENIED|Permission denied: Consumer|Permission '[^']+' denied|caller does not have permission|does not have permission to use|unregistered callers|member of an organization|invalid_grant|reauth/i,
  },
  {
    what: "a rate limit",
    code: "RATE_LIMITED",
    pattern:
      /\b429\b(?!:\d)|rate[ _-]?limit|too many requests|throttl|ServiceQuotaExceeded|(?<!disk )quota exceeded|request reached [^\n]{0,40}\b(?:RPM|TPM|RPD|TPD|concurrency)\b/i,
  },
];

/**
 * The first n rules' patterns in one, for n = 1 … all (regex-union.ts: grouped by first letter, a
 * third of the cost of the same alternatives in table order). A text the whole table's union does
 * not match, most of what agents report, is told so by one look. Each is made when first asked
 * (the whole table's ~0.5 ms cold), not when od starts.
 */
export function firstRules(): readonly RegExp[] {
  return PROVIDER_RULES.map((_, n) => new RegExp(union(n + 1).source, "i")); // without the g its test would keep a lastIndex
}

/** The union of the first n rules, asked from a position on (lastIndex). */
const unions: RegExp[] = [];
const union = (n: number): RegExp => (unions[n - 1] ??= new RegExp(unionOf(PROVIDER_RULES.slice(0, n).map((r) => r.pattern)).source, "gi"));

/** Every rule, each in a group of its own, asked at one position only (lastIndex): the first group that took part is the first rule that matches there. */
let at: RegExp | undefined;

/**
 * The first rule whose words are in the text, or undefined. Where the first match of any rule
 * begins, the first rule that matches there; then only a rule before it can still win, further
 * on: the union of those is asked from the next position, and so on. The text is read about once
 * whichever rule matches, where asking the rules in order read it once per rule before the one
 * that matches.
 */
export function matchProviderError(text: string): ProviderRule | undefined {
  let n = PROVIDER_RULES.length;
  let from = 0;
  for (;;) {
    const look = union(n);
    look.lastIndex = from;
    const found = look.exec(text);
    if (!found) return n === PROVIDER_RULES.length ? undefined : PROVIDER_RULES[n];
    at ??= new RegExp(PROVIDER_RULES.map((rule) => `(${rule.pattern.source})`).join("|"), "iy");
    at.lastIndex = found.index;
    const groups = at.exec(text)!;
    n = groups.findIndex((g, i) => i > 0 && g !== undefined) - 1;
    if (n === 0) return PROVIDER_RULES[0];
    from = found.index + 1;
  }
}
