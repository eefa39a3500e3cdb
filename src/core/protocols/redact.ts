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

/**
 * Each shape: the words it cannot match without (`lower` is the text in lower case, for the
 * case-insensitive shapes), the pattern, and what replaces the secret. The words are a plain search,
 * far cheaper than the pattern, so a diagnostic that mentions "tokens" runs only the shapes that could
 * match it. Replacing inserts only "[redacted]" (which holds none of the words) beside text that was
 * there, so what a later shape needs was already in the text as it came.
 */
type Shape = [(lower: string, text: string) => boolean, RegExp, Replacement];

const any = (s: string, words: readonly string[]) => words.some((w) => s.includes(w));

/** Keys by their shape (`(?!\[redacted\])` skips what is already done). A header's or a field's value goes before the bare prefixes. */
const SHAPES: readonly Shape[] = [
  // OpenAI (and Moonshot, DashScope's compatible mode) echo the key they refused, masked or not.
  [
    (l) => l.includes("incorrect api key provided:"),
    /(incorrect api key provided:\s*)(?!\[redacted\])[^\s,;"']+?(?=\.?(?:\s|$|["',;]))/gi,
    `$1${REDACTED}`,
  ],
  // DeepSeek: "Your api key: ****cd15 is invalid".
  [(l) => l.includes("key:"), /(api[ _-]?key:\s*)\*+[^\s"',;]*/gi, `$1${REDACTED}`],
  // Authorization headers, in any spelling and quoting: "Authorization: Bearer x", \"authorization\": \"Basic x\".
  [
    (l) => l.includes("authorization"),
    /\b((?:proxy-)?authorization\\?["']?\s*[:=]\s*\\?["']?)(?!(?:(?:bearer|basic|token)\s+)?\[redacted\])(?:(bearer|basic|token)\s+)?[^\s"',;\\]+/gi,
    (_match, head: string, scheme?: string) => `${head}${scheme ? `${scheme} ` : ""}${REDACTED}`,
  ],
  [(l) => l.includes("bearer"), /\b(bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi, `$1${REDACTED}`],
  // Key-valued headers, fields, env lines: x-api-key, x-goog-api-key, api-key, OPENAI_API_KEY=, "apiKey": "…", api_key = "…".
  [
    (l) => any(l, ["api", "access", "auth", "secret", "password"]),
    /(?<![A-Za-z0-9])((?:x-(?:goog-)?)?api[_-]?key|apikey|access[_-]?token|auth[_-]?token|secret[_-]?access[_-]?key|client[_-]?secret|password)(\\?["']?\s*[:=]\s*\\?["']?)(?!\[redacted\])[^\s"',;&\\]+/gi,
    `$1$2${REDACTED}`,
  ],
  // Query parameters: Gemini's ?key=, signed URLs.
  [
    (l) => any(l, ["key=", "token=", "sig=", "signature="]),
    /([?&](?:key|token|sig|signature)=)(?!\[redacted\])[^&\s"']+/gi,
    `$1${REDACTED}`,
  ],
  // Bare keys by their well-known prefixes.
  [(_, t) => t.includes("sk-"), /\bsk-(?:ant-|proj-|or-v1-|svcacct-)?[A-Za-z0-9_*-]{8,}/g, REDACTED],
  [(_, t) => t.includes("AIza"), /\bAIza[0-9A-Za-z_-]{20,}/g, REDACTED],
  [
    (_, t) => t.includes("_") && any(t, ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"]),
    /\b(?:gh[pousr]|github_pat)_[A-Za-z0-9_]{20,}/g,
    REDACTED,
  ],
  [(_, t) => t.includes("xai-"), /\bxai-[A-Za-z0-9]{20,}/g, REDACTED],
  [(_, t) => t.includes("AKIA") || t.includes("ASIA"), /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, REDACTED],
  [(_, t) => t.includes("ya29."), /\bya29\.[0-9A-Za-z_-]{20,}/g, REDACTED],
  [(_, t) => t.includes("eyJ"), /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]+/g, REDACTED],
];

/**
 * Anything worth a closer look: the words no shape matches without (not a bare "key" or "token":
 * usage records say "inputTokens", ids say "sessionKey", and those lines then paid for every shape).
 * Most text has none of these, and is returned as it is after one test.
 */
export const SUSPECT =
  /api[ _-]?key|bearer|authori[sz]ation|access[_-]?token|auth[_-]?token|secret|password|[?&](?:key|token|sig|signature)=|sk-|AIza|gh[pousr]_|github_pat|xai-|AKIA|ASIA|ya29\.|eyJ/i;

/**
 * Texts that SUSPECT let through and the shapes left as they were: the words a diagnostic uses about
 * keys ("Invalid API key", a hint naming OPENAI_API_KEY). The shapes cost several times the look, and
 * such a text comes back: a parser's error message is redacted when it is made and again by the
 * pipeline, a hint is the same on every error of an agent, a retry repeats its line. Only texts that
 * hold no credential are kept, at most CLEAN_MAX of them, none longer than CLEAN_CHARS.
 */
const clean = new Set<string>();
const CLEAN_MAX = 256;
const CLEAN_CHARS = 1024;

/**
 * The last text redacted and what it became: an error's message is redacted where the error is made
 * (classify-text.ts) and again, the very same string, by the pipeline (interpret.ts), which then
 * costs one comparison instead of the look.
 */
let lastText = "";
let lastOut = "";

/** The text with every credential-shaped value replaced by "[redacted]". */
export function redact(text: string): string {
  if (text === lastText) return lastOut;
  const out = redacting(text);
  lastText = text;
  lastOut = out;
  return out;
}

function redacting(text: string): string {
  if (!SUSPECT.test(text) || clean.has(text)) return text;
  const lower = text.toLowerCase();
  let out = text;
  for (const [could, pattern, replacement] of SHAPES) if (could(lower, text)) out = out.replace(pattern, replacement as string);
  if (out === text && text.length <= CLEAN_CHARS) {
    if (clean.size >= CLEAN_MAX) clean.clear();
    clean.add(text);
  }
  return out;
}
