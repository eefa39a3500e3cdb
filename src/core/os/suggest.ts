/**
 * "Did you mean …": the known name closest to a misspelt one (a command, an agent id, a flag),
 * for the hint of the error that refuses it. Close means few edits: an inserted, deleted or
 * changed letter, or two neighbours swapped (`cluade` → `claude`, `rnu` → `run`), and at most
 * one edit per three letters, so an unrelated word gets no suggestion at all.
 */

/** The optimal-string-alignment distance: insertions, deletions, substitutions and adjacent swaps, each one edit. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) rows.push([i, ...Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  return rows[a.length]![b.length]!;
}

/**
 * The candidate closest to `word` (ignoring case), if one is close enough; on a tie the first one
 * listed wins. Failing that, the one candidate `word` begins (`serv` → `serve`), when only one does.
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const w = word.toLowerCase();
  if (!w) return undefined;
  const limit = Math.max(1, Math.floor(w.length / 3));
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  const prefixed: string[] = [];
  for (const candidate of candidates) {
    const c = candidate.toLowerCase();
    if (c === w) return candidate;
    const d = editDistance(w, c);
    if (d <= limit && d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
    if (w.length >= 2 && c.startsWith(w)) prefixed.push(candidate);
  }
  return best ?? (prefixed.length === 1 ? prefixed[0] : undefined);
}

/** `Did you mean "claude"? ` (with its trailing space, to lead a hint), or "" when nothing is close. */
export function didYouMean(word: string, candidates: Iterable<string>, quote = (s: string) => `"${s}"`): string {
  const match = closest(word, candidates);
  return match === undefined ? "" : `Did you mean ${quote(match)}? `;
}
