/**
 * The parse benchmark's input and its three kernels. An adapter's corpus is its fixtures replayed,
 * each as one run with a fresh state, until the corpus is about `targetBytes` long. An ACP fixture is a
 * handshake, a few session/update frames and the prompt's answer; a real session has hundreds of
 * updates after one handshake, so the bench plays each ACP fixture as a session of realistic length:
 * its updates (and requests) repeated, every round with tool call ids of its own, between the
 * handshake and the answer as recorded. The conformance fixtures themselves stay as they are.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { driverFor } from "../../src/core/agents/driver-for.ts";
import type { Adapter } from "../../src/core/contract/adapter.ts";
import { interpret } from "../../src/core/protocols/interpret.ts";
import { FIXTURES } from "../helpers.ts";

/** One fixture replayed: its lines, parsed with a fresh state, as one run. */
type Run = string[];

export interface Corpus {
  adapter: Adapter;
  kind: string;
  runs: Run[];
  lines: number;
  bytes: number;
}

/** A few runs of a corpus, at least CHUNK_LINES lines: what one timing covers (parse.bench.ts). */
export type Chunk = Pick<Corpus, "adapter" | "kind" | "runs">;

export const CHUNK_LINES = 64;

/** The corpus in chunks of whole runs, each at least CHUNK_LINES lines (the last may be shorter). */
export function chunks(c: Corpus): Chunk[] {
  const out: Chunk[] = [];
  let runs: Run[] = [];
  let lines = 0;
  for (const run of c.runs) {
    runs.push(run);
    lines += run.length;
    if (lines >= CHUNK_LINES) out.push({ adapter: c.adapter, kind: c.kind, runs }), (runs = []), (lines = 0);
  }
  if (runs.length) out.push({ adapter: c.adapter, kind: c.kind, runs });
  return out;
}

/** Frames of session/update (and the agent's requests) an ACP session has at least, in the bench. */
export const SESSION_FRAMES = 400;

/**
 * An ACP transcript as a session of realistic length: between the handshake and the answers as
 * recorded, its frames from the first message the agent sends on its own (a method) to the last one,
 * then its session/update frames and permission requests again until there are at least `frames`, each
 * round's tool call ids its own (`call_1` → `call_1~r7`). An agent's other notifications (its own
 * extensions, an error it reports) come once, as recorded.
 */
export function acpSession(lines: readonly string[], frames = SESSION_FRAMES): string[] {
  const first = lines.findIndex((l) => l.includes('"method"'));
  const last = lines.findLastIndex((l) => l.includes('"method"'));
  if (first < 0) return [...lines];
  const middle = lines.slice(first, last + 1);
  const again = middle.filter((l) => /"method":"session\/(?:update|request_permission)"/.test(l));
  const out = lines.slice(0, last + 1);
  for (let r = 1, n = middle.length; again.length && n < frames; r++, n += again.length)
    for (const l of again) out.push(l.replace(/("toolCallId":"[^"\\]*)"/g, `$1~r${r}"`));
  return out.concat(lines.slice(last + 1));
}

function kindOf(adapter: Adapter): string {
  const p = adapter.protocol as { kind: string; driver?: string; format?: string };
  return p.kind === "lines" ? `lines:${p.format ?? "json"}` : `${p.kind}:${p.driver ?? "?"}`;
}

export function corpus(adapter: Adapter, targetBytes: number): Corpus | undefined {
  // Parsers of CLI output only: line protocols and session drivers (od's own loops read no stdout).
  if (adapter.protocol.kind !== "lines" && adapter.protocol.kind !== "driver") return undefined;
  const dir = join(FIXTURES, adapter.id);
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith(".jsonl"))
      .sort();
  } catch {
    return undefined;
  }
  const kind = kindOf(adapter);
  const fixtures = files.map((f) => {
    const lines = readFileSync(join(dir, f), "utf8").replace(/\n$/, "").split("\n");
    return kind === "driver:acp" ? acpSession(lines) : lines;
  });
  const once = fixtures.reduce((n, lines) => n + lines.reduce((m, l) => m + Buffer.byteLength(l) + 1, 0), 0);
  if (!once) return undefined;
  const copies = Math.max(1, Math.round(targetBytes / once));
  const runs: Run[] = [];
  for (let i = 0; i < copies; i++) runs.push(...fixtures);
  return { adapter, kind, runs, lines: runs.reduce((n, r) => n + r.length, 0), bytes: once * copies };
}

const ctxOf = (a: Adapter) => ({ agent: { name: a.name, login: a.login }, prompt: "Say hi", cwd: "/work/project", mode: "edit" as const });

/** Bare JSON.parse of every line (text protocols: nothing to parse, so the floor is a length read). */
export function floor(c: Chunk): number {
  let sink = 0;
  const json = !c.kind.endsWith(":text");
  for (const run of c.runs)
    for (const line of run) {
      if (!json) sink += line.length;
      else if (line.trim())
        try {
          sink += JSON.parse(line) ? 1 : 0;
        } catch {}
    }
  return sink;
}

/** JSON.parse and the adapter's own parser; returns the number of events. */
export function parser(c: Chunk): number {
  const driver = driverFor(c.adapter);
  let events = 0;
  for (const run of c.runs) {
    const { state } = driver.start(ctxOf(c.adapter));
    for (const line of run) {
      if (!line.trim() && !driver.textLines) continue;
      let record: unknown = line;
      if (!driver.textLines)
        try {
          record = JSON.parse(line);
        } catch {
          events++;
          continue;
        }
      try {
        events += driver.receive(record, state, line).events.length;
      } catch {
        events++;
      }
    }
    events += driver.finish?.(state).length ?? 0;
  }
  return events;
}

/** What the run pipeline does with each line of a built-in adapter (plugins' events are schema-checked on top). */
export function pipeline(c: Chunk): number {
  const driver = driverFor(c.adapter);
  let events = 0;
  for (const run of c.runs) {
    const { state } = driver.start(ctxOf(c.adapter));
    for (const line of run) events += interpret(driver, state, line, false).events.length;
    events += driver.finish?.(state).length ?? 0;
  }
  return events;
}
