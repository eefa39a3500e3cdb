/**
 * One regex that matches a text exactly when one of several does, built to be fast to ask.
 * JSC's regex engine tries a union's alternatives one after another at every position of the
 * text, so a union of many (the provider table's are ~110) costs ~15 ns a character. Grouped by
 * their first letter (`insufficient…|invalid…|unauthori…` → `i(?:nsufficient…|nvalid…)|u(?:nauthori…)`)
 * it tries a letter's group only where that letter is: about a third of the time (measured on
 * provider messages, 2026-12-02). For `test` the order of alternatives does not matter, so the
 * grouping keeps the meaning; patterns with groups that capture are refused (a union would renumber them).
 */

/** A pattern's top-level alternatives, as source: split at each `|` outside groups and classes. */
export function alternativesOf(source: string): string[] {
  // By index and slice: built a character at a time, the table's 4 kB took ~1 ms cold.
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (inClass) inClass = c !== CLOSE_CLASS;
    else if (c === OPEN_CLASS) inClass = true;
    else if (c === OPEN) depth++;
    else if (c === CLOSE) depth--;
    else if (c === BAR && depth === 0) {
      out.push(source.slice(start, i));
      start = i + 1;
    }
  }
  out.push(source.slice(start));
  return out;
}

const [BACKSLASH, OPEN_CLASS, CLOSE_CLASS, OPEN, CLOSE, BAR, QUESTION, LESS] = [..."\\[]()|?<"].map((c) => c.charCodeAt(0));

/** Whether a pattern has a group that captures: a `(` outside classes that is not `(?:`, a lookaround or a lookbehind. */
function captures(source: string): boolean {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (inClass) inClass = c !== CLOSE_CLASS;
    else if (c === OPEN_CLASS) inClass = true;
    else if (
      c === OPEN &&
      (source.charCodeAt(i + 1) !== QUESTION || (source.charCodeAt(i + 2) === LESS && !"=!".includes(source[i + 3] ?? "")))
    )
      return true;
  }
  return false;
}

/** A pattern's alternatives, once per pattern: the provider table's unions of its first n rules read each rule up to eight times. */
const split = new WeakMap<RegExp, string[]>();

function checkedAlternatives(pattern: RegExp): string[] {
  let alternatives = split.get(pattern);
  if (alternatives) return alternatives;
  if (captures(pattern.source)) throw new Error(`unionOf: /${pattern.source}/ captures`);
  alternatives = alternativesOf(pattern.source);
  split.set(pattern, alternatives);
  return alternatives;
}

/**
 * A regex that `test`s true exactly when one of `patterns` does, all with the same flags (and no
 * global or sticky one: `test` would then depend on lastIndex). An alternative that starts with a
 * letter or digit, not quantified, joins the group of that character (its lower case under `i`);
 * any other (a `\b`, a class, a group, an escape) stays as it is.
 */
export function unionOf(patterns: readonly RegExp[]): RegExp {
  const flags = patterns[0]?.flags ?? "";
  const fold = flags.includes("i");
  const groups = new Map<string, string[]>();
  const rest: string[] = [];
  for (const pattern of patterns) {
    if (pattern.flags !== flags || /[gy]/.test(flags)) throw new Error(`unionOf: /${pattern.source}/${pattern.flags} has other flags`);
    for (const alt of checkedAlternatives(pattern)) {
      const first = alt[0] ?? "";
      if (!/[A-Za-z0-9]/.test(first) || /^[?*+{]/.test(alt.slice(1))) {
        rest.push(alt);
        continue;
      }
      const key = fold ? first.toLowerCase() : first;
      const tails = groups.get(key);
      if (tails) tails.push(alt.slice(1));
      else groups.set(key, [alt.slice(1)]);
    }
  }
  const grouped = [...groups].map(([key, tails]) => (tails.length === 1 ? key + tails[0] : `${key}(?:${tails.join("|")})`));
  return new RegExp([...grouped, ...rest].join("|"), flags);
}
