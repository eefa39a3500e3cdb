import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES } from "../helpers.ts";
import { parseSummary } from "./parse.bench.ts";
import { acpSession, SESSION_FRAMES } from "./parse-corpus.ts";
import { figure } from "./stats.ts";

const lines = (id: string, name: string) =>
  readFileSync(join(FIXTURES, id, `${name}.jsonl`), "utf8")
    .replace(/\n$/, "")
    .split("\n");
const ids = (ls: string[]) => ls.flatMap((l) => [...l.matchAll(/"toolCallId":"([^"]*)"/g)].map((m) => m[1]!));

describe("an ACP fixture played as a session of realistic length", () => {
  const fixture = lines("devin", "edit-in-workspace");
  const session = acpSession(fixture);
  const first = fixture.findIndex((l) => l.includes('"method"'));

  test("one handshake, the answer last, and at least SESSION_FRAMES frames between", () => {
    expect(session.slice(0, first)).toEqual(fixture.slice(0, first));
    expect(session.at(-1)).toBe(fixture.at(-1)!);
    expect(session.filter((l) => l.includes('"method"')).length).toBeGreaterThanOrEqual(SESSION_FRAMES);
  });

  test("each round's tool calls are calls of their own; the agent's own notifications come once", () => {
    const rounds = session.filter((l) => l.includes('"sessionUpdate":"tool_call"')).length;
    expect(new Set(ids(session)).size).toBe(rounds * new Set(ids(fixture)).size);
    expect(session.filter((l) => l.includes("_cognition.ai/turn_stats")).length).toBe(1);
  });

  test("a transcript with no frames of the agent's own (a refused handshake) stays as it is", () => {
    const refused = lines("devin", "auth-required");
    expect(acpSession(refused)).toEqual(refused);
  });
});

test("the parse summary marks what misses issue 34's targets, and why", () => {
  const ratio = (id: string, xs: number[], met: boolean) =>
    figure("1 parse", `${id}: pipeline / floor`, "x", xs, { target: ">= 0.5", met });
  const ns = (id: string, x: number, met: boolean) =>
    figure("1 parse", `${id}: pipeline - parser, per event`, "ns", [x], { target: "<= 60", met });
  const out = parseSummary([
    ratio("fast", [0.6, 0.55, 0.7], true),
    ns("fast", 20, true),
    ratio("slow", [0.45, 0.35, 0.5], false),
    ns("slow", 90, false),
  ]);
  expect(out).toMatch(/^fast\s+0\.60\s+0\.55\s+-\s+20\s+ok$/m);
  expect(out).toMatch(/^slow\s+0\.45\s+0\.35\s+-\s+90\s+MISS median,min,ns$/m);
});
