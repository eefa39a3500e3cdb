/**
 * Credentials out of an agent's diagnostic text (its errors, hints, status
 * details, raw lines and stderr) before they become events or logs. Providers
 * echo keys back ("Incorrect API key provided: sk-abc…", "Consumer
 * 'api_key:AIza…'"), CLIs print request headers and URLs when a call fails, and
 * all of it ends up in the run log and on every surface. What is replaced is the
 * secret only; the words around it stay, so the text still says what went wrong
 * (and is still classified the same). Assistant text and the user's prompt are
 * never passed here.
 */
export const REDACTED = "[redacted]";

type Replacement = string | ((match: string, ...groups: string[]) => string);

/** Keys by their shape (`(?!\[redacted\])` skips what is already done). A header's or a field's value goes before the bare prefixes. */
const SHAPES: ReadonlyArray<[RegExp, Replacement]> = [
  // OpenAI (and Moonshot, DashScope's compatible mode) echo the key they refused, masked or not.
  [/(incorrect api key provided:\s*)(?!\[redacted\])[^\s,;"']+?(?=\.?(?:\s|$|["',;]))/gi, `$1${REDACTED}`],
  // DeepSeek: "Your api key: ****cd15 is invalid".
  [/(api[ _-]?key:\s*)\*+[^\s"',;]*/gi, `$1${REDACTED}`],
  // Authorization headers, in any spelling and quoting: "Authorization: Bearer x", \"authorization\": \"Basic x\".
  [
    /\b((?:proxy-)?authorization\\?["']?\s*[:=]\s*\\?["']?)(?!(?:(?:bearer|basic|token)\s+)?\[redacted\])(?:(bearer|basic|token)\s+)?[^\s"',;\\]+/gi,
    (_match, head: string, scheme?: string) => `${head}${scheme ? `${scheme} ` : ""}${REDACTED}`,
  ],
  [/\b(bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi, `$1${REDACTED}`],
  // Key-valued headers, fields, env lines: x-api-key, x-goog-api-key, api-key, OPENAI_API_KEY=, "apiKey": "…", api_key = "…".
  [
    /(?<![A-Za-z0-9])((?:x-(?:goog-)?)?api[_-]?key|apikey|access[_-]?token|auth[_-]?token|secret[_-]?access[_-]?key|client[_-]?secret|password)(\\?["']?\s*[:=]\s*\\?["']?)(?!\[redacted\])[^\s"',;&\\]+/gi,
    `$1$2${REDACTED}`,
  ],
  // Query parameters: Gemini's ?key=, signed URLs.
  [/([?&](?:key|token|sig|signature)=)(?!\[redacted\])[^&\s"']+/gi, `$1${REDACTED}`],
  // Bare keys by their well-known prefixes.
  [/\bsk-(?:ant-|proj-|or-v1-|svcacct-)?[A-Za-z0-9_*-]{8,}/g, REDACTED],
  [/\bAIza[0-9A-Za-z_-]{20,}/g, REDACTED],
  [/\b(?:gh[pousr]|github_pat)_[A-Za-z0-9_]{20,}/g, REDACTED],
  [/\bxai-[A-Za-z0-9]{20,}/g, REDACTED],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, REDACTED],
  [/\bya29\.[0-9A-Za-z_-]{20,}/g, REDACTED],
  [/\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]+/g, REDACTED],
];

/** Anything worth a closer look: most text has none of these, and is returned as it is after one test. */
const SUSPECT =
  /key|bearer|authori[sz]ation|token|secret|password|sk-|AIza|gh[pousr]_|github_pat|xai-|AKIA|ASIA|ya29\.|eyJ|[?&](?:sig|signature)=/i;

/** The text with every credential-shaped value replaced by "[redacted]". */
export function redact(text: string): string {
  if (!SUSPECT.test(text)) return text;
  let out = text;
  for (const [pattern, replacement] of SHAPES) out = out.replace(pattern, replacement as string);
  return out;
}
