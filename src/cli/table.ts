import { stdout } from "./out.ts";

/** A plain text table for people; scripts use --json instead. */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(headers), ...rows.map(line)].join("\n");
}

export function printJson(value: unknown): Promise<void> {
  return stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** A column that gives way when a table is too wide: down to `min` characters, clipped at its `end` or its `start` ("…/src/app"). */
export interface Give {
  column: number;
  min: number;
  clip?: "end" | "start";
}

/**
 * The rows with cells clipped ("…") so that `table(headers, rows)` is at most `width` characters
 * wide: the columns in `order` give way in turn, each down to its `min` (a column may come twice,
 * to give a little first and more later). What cannot be made to fit is left as wide as it must be.
 */
export function fitRows(headers: string[], rows: string[][], width: number, order: Give[]): string[][] {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  let total = widths.reduce((a, b) => a + b, 0) + 2 * (widths.length - 1);
  const clips = new Map<number, "end" | "start">();
  for (const give of order) {
    if (total <= width) break;
    const floor = Math.max(give.min, headers[give.column]!.length, 1);
    const cut = Math.max(0, Math.min(widths[give.column]! - floor, total - width));
    widths[give.column]! -= cut;
    total -= cut;
    if (cut) clips.set(give.column, give.clip ?? "end");
  }
  return rows.map((r) => r.map((cell, i) => clip(cell, widths[i]!, clips.get(i) ?? "end")));
}

/** `text` in at most `max` characters, "…" where it was cut. */
export function clip(text: string, max: number, at: "end" | "start" = "end"): string {
  if (text.length <= max) return text;
  return at === "end" ? `${text.slice(0, max - 1)}…` : `…${text.slice(text.length - max + 1)}`;
}
