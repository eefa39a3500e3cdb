// Another thread flips a folder inside the cwd between a real folder and a symlink that leads out,
// as fast as it can, while the tools read, write and edit through it (swapper.ts). Whatever the
// timing, nothing outside is read, changed or created: each path is opened beneath the cwd without
// following a link, with each way beneath.ts has of doing that on this machine. An attempt (Read,
// Edit, two Writes) counts when the folder flipped while it ran; a case ends after OD_RACE_ATTEMPTS
// of those (default 300) or its share of OD_RACE_MS (default 3000), whichever comes first.
// OD_RACE_HOLD_MS (default 0.05) is the longest the swapper holds each state.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Backend, backends, useBackend } from "../../../src/core/api/beneath.ts";
import { runTool } from "../../../src/core/api/tools.ts";
import { tmpdir } from "../../helpers.ts";
import { real } from "./harness.ts";
import type { SwapKind, SwapOrder } from "./swapper.ts";

const ATTEMPTS = Number(process.env.OD_RACE_ATTEMPTS ?? 300);
const BUDGET_MS = Number(process.env.OD_RACE_MS ?? 3000);
const HOLD_MS = Number(process.env.OD_RACE_HOLD_MS ?? 0.05);

interface Tally {
  attempts: number;
  flippedDuring: number;
  readEscapes: number;
  editEscapes: number;
  createdOutside: number;
  succeeded: { Read: number; Write: number; Edit: number };
}

const base = tmpdir("od-race-");
afterAll(() => base[Symbol.asyncDispose]());

/** project/ (the cwd) with the folder the swapper flips, and outside/ that must never change. */
function build(label: string, kind: SwapKind): { root: string; outside: string } {
  const project = join(base.path, label, "project");
  const outside = join(base.path, label, "outside");
  const folder = join(project, kind === "exchange" ? "d" : "d.real");
  mkdirSync(folder, { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, "secret.txt"), "OUTSIDE SECRET");
  writeFileSync(join(outside, "edit.txt"), "TOKEN");
  writeFileSync(join(folder, "secret.txt"), "inside");
  writeFileSync(join(folder, "edit.txt"), "TOKEN");
  if (kind === "exchange") symlinkSync("../outside", join(project, "d.link"));
  else symlinkSync("d.real", join(project, "d"));
  return { root: real(project), outside };
}

/** Counts what reached outside since the last look, and puts outside back as it was. */
function escapes(outside: string, tally: Tally): void {
  if (readFileSync(join(outside, "edit.txt"), "utf8") !== "TOKEN") {
    tally.editEscapes++;
    writeFileSync(join(outside, "edit.txt"), "TOKEN");
  }
  for (const name of readdirSync(outside))
    if (name !== "secret.txt" && name !== "edit.txt") {
      tally.createdOutside++;
      rmSync(join(outside, name), { recursive: true, force: true });
    }
}

function attempt(root: string, i: number, tally: Tally): void {
  const calls = [
    { name: "Read", args: { path: "d/secret.txt" } },
    { name: "Edit", args: { path: "d/edit.txt", old_string: "TOKEN", new_string: "TOKEN!" } },
    { name: "Write", args: { path: "d/w.txt", content: "written" } },
    { name: "Write", args: { path: `d/n${i}/deeper/x.txt`, content: "written" } },
  ] as const;
  for (const call of calls) {
    const out = runTool(root, "edit", call.name, call.args);
    if (out.output.includes("OUTSIDE")) tally.readEscapes++;
    if (!out.isError) tally.succeeded[call.name]++;
  }
}

async function race(label: string, kind: SwapKind, budgetMs: number): Promise<Tally> {
  const { root, outside } = build(label, kind);
  const shared = new SharedArrayBuffer(8);
  const counters = new Int32Array(shared);
  const swapper = new Worker(new URL("./swapper.ts", import.meta.url));
  const stopped = new Promise((done) => swapper.addEventListener("message", done, { once: true }));
  swapper.postMessage({ root, kind, holdMs: HOLD_MS, shared } satisfies SwapOrder);
  const tally: Tally = {
    attempts: 0,
    flippedDuring: 0,
    readEscapes: 0,
    editEscapes: 0,
    createdOutside: 0,
    succeeded: { Read: 0, Write: 0, Edit: 0 },
  };
  try {
    while (Atomics.load(counters, 0) === 0) await Bun.sleep(1);
    const started = performance.now();
    for (let i = 0; tally.flippedDuring < ATTEMPTS && performance.now() - started < budgetMs; i++) {
      const flips = Atomics.load(counters, 0);
      attempt(root, i, tally);
      tally.attempts++;
      if (Atomics.load(counters, 0) !== flips) tally.flippedDuring++;
      escapes(outside, tally);
    }
  } finally {
    Atomics.store(counters, 1, 1);
    await stopped;
    swapper.terminate();
  }
  escapes(outside, tally);
  rmSync(join(base.path, label), { recursive: true, force: true }); // a folder per attempt: not left for afterAll
  return tally;
}

/**
 * The best backend this machine has against both swappers, the whole budget for the folder swapped
 * for a link; each fallback (openat2 missing or filtered, no ffi) against it with a third of it.
 * The path backend (Windows) is not race-free and not tried here.
 */
const [best, ...fallbacks] = backends().filter((b) => b !== "path");
const CASES: Array<{ backend: Backend; kind: SwapKind; share: number }> = best
  ? [
      { backend: best, kind: "exchange", share: 1 },
      { backend: best, kind: "relink", share: 1 / 3 },
      ...fallbacks.map((backend) => ({ backend, kind: "exchange" as const, share: 1 / 3 })),
    ]
  : [];

describe.skipIf(process.platform !== "linux")("the tools against a folder swapped for a link that leads out", () => {
  afterAll(() => useBackend());

  test.each(CASES)(
    "$backend, $kind: nothing outside is read or edited, nothing is created outside",
    async ({ backend, kind, share }) => {
      useBackend(backend);
      const tally = await race(`${backend}-${kind}`, kind, BUDGET_MS * share);
      console.log(`race (${backend}, ${kind}): ${JSON.stringify(tally)}`);
      expect(tally.flippedDuring).toBeGreaterThan(0);
      expect({ read: tally.readEscapes, edited: tally.editEscapes, created: tally.createdOutside }).toEqual({
        read: 0,
        edited: 0,
        created: 0,
      });
    },
    60_000,
  );
});
