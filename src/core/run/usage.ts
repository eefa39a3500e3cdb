import type { BodyOf, OdEventBody } from "../events.ts";

const FIELDS = ["inputTokens", "outputTokens", "cacheRead", "cacheWrite", "reasoningTokens", "costUsd"] as const;
type Field = (typeof FIELDS)[number];
export type Figures = Partial<Record<Field, number>>;
export interface UsageTotals extends Figures {
  /** The same figures per model, where the agent said which model it used. */
  byModel?: Record<string, Figures>;
}

/** Per model, within one attempt: the sum of its turns, and the agent's own run total when it reports one. */
interface Tally {
  turns: Figures;
  run?: Figures;
}

/**
 * Sums a run's usage over its turns (and over its attempts, when it was
 * retried: each one was paid for). An agent that reports a whole-run total
 * (`source: "run"`) is taken at its word for that attempt rather than added
 * to its own turn figures. Only the figures an agent reported appear: a run
 * that reported none has no totals, not zeros. A count that is not a finite,
 * non-negative number is left out.
 */
export class UsageMeter {
  private readonly done: Array<Map<string, Tally>> = [];
  private current = new Map<string, Tally>();
  private model = "";

  observe(body: OdEventBody): void {
    if (body.type === "run.started") {
      if (this.current.size) this.done.push(this.current);
      this.current = new Map();
      this.model = body.model ?? "";
    } else if (body.type === "session" && body.model) this.model = body.model;
    else if (body.type === "usage") this.add(body);
  }

  private add(body: BodyOf<"usage">): void {
    const tally = this.current.get(this.model) ?? { turns: {} };
    this.current.set(this.model, tally);
    if (body.source === "run") tally.run = plus({}, body);
    else plus(tally.turns, body);
  }

  totals(): UsageTotals | undefined {
    const all: Figures = {};
    const byModel: Record<string, Figures> = {};
    for (const attempt of [...this.done, this.current])
      for (const [model, tally] of attempt) {
        const figures = tally.run ?? tally.turns;
        plus(all, figures);
        if (model) plus((byModel[model] ??= {}), figures);
      }
    if (!Object.keys(all).length) return undefined;
    return Object.keys(byModel).length ? { ...all, byModel } : all;
  }
}

function plus(into: Figures, from: Figures): Figures {
  for (const k of FIELDS) {
    const v = from[k];
    if (typeof v === "number" && Number.isFinite(v) && v >= 0) into[k] = (into[k] ?? 0) + v;
  }
  return into;
}
