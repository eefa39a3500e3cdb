/**
 * What a CLI says about a tool call besides its name and input: its kind (read, edit, execute, …),
 * the files it acts on, and for a todo tool the plan it writes. Each CLI family has one table of
 * its own tool names (in its parser); these are the pieces every table is made of.
 */
import type { OdEventBody, PlanEntry, ToolKind } from "../contract/events.ts";
import { asRecord, type Rec } from "./parse-helpers.ts";
import { todoPlan } from "./plan-entries.ts";

/** One tool of a CLI: what kind of call it is, which input keys name its files, and (a todo tool) how its input reads as a plan. */
export interface ToolRule {
  kind: ToolKind;
  /** Input keys that hold a path, or a list of paths, in the order they are read. */
  paths?: readonly string[];
  /** The plan a todo tool's input writes (see `todosAt`); undefined when the input holds none. */
  plan?: (input: Rec) => PlanEntry[] | undefined;
}

/** A call as its CLI describes it: the kind, the files (absent when it names none), the plan it writes. */
export interface ToolFacts {
  kind: ToolKind;
  paths?: string[];
  plan?: PlanEntry[];
}

export type ToolDescriber = (name: string, input: unknown) => ToolFacts;

/** A todo tool's plan: the list under `key` of its input (see todoPlan for the shapes it reads); an empty list empties the plan. */
export const todosAt =
  (key = "todos") =>
  (input: Rec): PlanEntry[] | undefined =>
    Array.isArray(input[key]) ? todoPlan(input[key]) : undefined;

/** The strings under `keys` in `input`: each a path, or a list of paths; each once, in order. */
export function pathsIn(input: unknown, keys: readonly string[] = []): string[] {
  const r = asRecord(input);
  const found: string[] = [];
  for (const key of keys) {
    const v = r?.[key];
    for (const p of Array.isArray(v) ? v : [v]) if (typeof p === "string" && p && !found.includes(p)) found.push(p);
  }
  return found;
}

/**
 * A CLI family's tools by name, as it spells them (then case-insensitively): what a call of each
 * is. A name the table does not know is `other`, with no files.
 */
export function toolTable(rules: Record<string, ToolRule>): ToolDescriber {
  // Built at the first name not spelt as the table spells it: every adapter's table is made as od
  // loads its adapters (`od agents` too, which parses nothing), and making them all took ~1 ms.
  let lower: Map<string, ToolRule> | undefined;
  const folded = (name: string) => {
    lower ??= new Map(Object.entries(rules).map(([n, rule]) => [n.toLowerCase(), rule]));
    return lower.get(name.toLowerCase());
  };
  return (name, input) => factsOf(Object.hasOwn(rules, name) ? rules[name] : folded(name), input);
}

/** A call's facts from its rule (none: other). */
export function factsOf(rule: ToolRule | undefined, input: unknown): ToolFacts {
  if (!rule) return { kind: "other" };
  const paths = pathsIn(input, rule.paths);
  const r = asRecord(input);
  const plan = rule.plan && r ? rule.plan(r) : undefined;
  // Per tool call: fields set as they apply, in this order, rather than spread from objects made for it.
  const facts: ToolFacts = { kind: rule.kind };
  if (paths.length) facts.paths = paths;
  if (plan) facts.plan = plan;
  return facts;
}

/** The `tool.call` for a call, with its kind and files, and after it the plan its input writes, if any. */
export function toolCallEvents(id: string, name: string, input: unknown, facts: ToolFacts, parent?: string): OdEventBody[] {
  const call: Extract<OdEventBody, { type: "tool.call" }> = { type: "tool.call", id, name, input, kind: facts.kind };
  if (facts.paths?.length) call.paths = facts.paths;
  if (parent) call.parent = parent;
  if (!facts.plan) return [call];
  const plan: Extract<OdEventBody, { type: "plan" }> = { type: "plan", entries: facts.plan };
  if (parent) plan.parent = parent;
  return [call, plan];
}
