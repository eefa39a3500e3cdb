import type { BodyOf, OdEventBody } from "../contract/events.ts";

const FIELDS = ["inputTokens", "outputTokens", "cacheRead", "cacheWrite", "reasoningTokens", "costUsd"] as const;
type Field = (typeof FIELDS)[number];
export type Figures = Partial<Record<Field, number>>;
export interface UsageTotals extends Figures {
  /** The same figures per model, where the agent said which model it used. */
  byModel?: Record<string, Figures>;
}

/** One attempt's figures: its turns per model, and the agent's own whole-run total when it reports one. */
interface Tally {
  turns: Map<string, Figures>;
  run?: { model: string; figures: Figures };
}

/**
 * Sums a run's usage over its turns (and over its attempts, when it was
 * retried: each one was paid for). An agent that reports a whole-run total
 * (`source: "run"`) is taken at its word for that attempt, in place of all of
 * its turn figures. Only the figures an agent reported appear: a run that
 * reported none has no totals, not zeros. A count that is not a finite,
 * non-negative number is left out.
 */
export class UsageMeter {
  private readonly done: Tally[] = [];
  private current: Tally = { turns: new Map() };
  private model = "";

  observe(body: OdEventBody): void {
    if (body.type === "run.started") {
      this.done.push(this.current);
      this.current = { turns: new Map() };
      this.model = body.model ?? "";
    } else if (body.type === "session" && body.model) this.model = body.model;
    else if (body.type === "usage") this.add(body);
  }

  private add(body: BodyOf<"usage">): void {
    if (body.source === "run") {
      this.current.run = { model: this.model, figures: plus({}, body) };
      return;
    }
    const turns = this.current.turns.get(this.model) ?? {};
    this.current.turns.set(this.model, plus(turns, body));
  }

  totals(): UsageTotals | undefined {
    const all: Figures = {};
    const byModel: Record<string, Figures> = {};
    for (const tally of [...this.done, this.current]) {
      const perModel = tally.run ? new Map([[tally.run.model, tally.run.figures]]) : tally.turns;
      for (const [model, figures] of perModel) {
        plus(all, figures);
        if (model) plus((byModel[model] ??= {}), figures);
      }
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
