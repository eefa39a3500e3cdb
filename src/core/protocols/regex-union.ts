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
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let current = "";
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === "\\") {
      current += c + (source[i + 1] ?? "");
      i++;
      continue;
    }
    if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) {
      out.push(current);
      current = "";
      continue;
    }
    current += c;
  }
  out.push(current);
  return out;
}

/** How many groups a pattern captures: the match of its union with nothing has one slot per group. */
const capturing = (source: string): number => new RegExp(`${source}|`).exec("")!.length - 1;

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
    if (capturing(pattern.source)) throw new Error(`unionOf: /${pattern.source}/ captures`);
    for (const alt of alternativesOf(pattern.source)) {
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
