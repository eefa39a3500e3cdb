import { expect, test } from "bun:test";
import { batchedSinks } from "../../src/cli/batched.ts";
import type { Out } from "../../src/cli/out.ts";

/** Writers that record what they were given; each write takes `delayMs` (a slow reader) and may fail. */
function recorder(delayMs = 0, fail?: (text: string) => Error | undefined) {
  const writes: Array<[string, string]> = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const sink = (name: string): Out => ({
    async write(text: string) {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        if (delayMs) await Bun.sleep(delayMs);
        const e = fail?.(text);
        if (e) throw e;
        writes.push([name, text]);
      } finally {
        inFlight--;
      }
    },
  });
  return { writes, out: sink("out"), err: sink("err"), maxInFlight: () => maxInFlight };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

test("a burst is one write per stream, in order, once the event loop turns", async () => {
  const r = recorder();
  const s = batchedSinks(r.out, r.err);
  for (let i = 0; i < 1000; i++) s.out.write(`${i}\n`);
  s.err.write("note\n");
  s.out.write("after\n");
  expect(r.writes).toEqual([]);
  await turn();
  await s.drained();
  expect(r.writes.map(([to]) => to)).toEqual(["out", "err", "out"]);
  expect(r.writes[0]![1].split("\n")).toHaveLength(1001);
  expect(r.writes.slice(1)).toEqual([
    ["err", "note\n"],
    ["out", "after\n"],
  ]);
});

test("flush starts the write of what is held at once, and nothing is written twice", async () => {
  const r = recorder();
  const s = batchedSinks(r.out, r.err);
  s.out.write("a");
  s.flush();
  await s.drained();
  expect(r.writes).toEqual([["out", "a"]]);
  await turn();
  expect(r.writes).toEqual([["out", "a"]]);
});

test("a slow reader: one write in flight, what comes meanwhile joins the next batch, in order, nothing lost", async () => {
  const r = recorder(5);
  const s = batchedSinks(r.out, r.err);
  const sent: string[] = [];
  for (let i = 0; i < 4000; i++) {
    const line = `${i}\n`;
    sent.push(line);
    (i % 500 === 0 ? s.err : s.out).write(line);
    if (i % 100 === 0) await turn();
  }
  await s.drained();
  expect(r.maxInFlight()).toBe(1);
  // Fewer writes than the loop's 40 turns: the batches grew while the reader was slow.
  expect(r.writes.length).toBeLessThan(20);
  const join = (to: string) =>
    r.writes
      .filter(([name]) => name === to)
      .map(([, text]) => text)
      .join("");
  expect(join("out")).toBe(sent.filter((_, i) => i % 500 !== 0).join(""));
  expect(join("err")).toBe(sent.filter((_, i) => i % 500 === 0).join(""));
});

test("a write that fails stops the writing: told once, drained() rejects with it, later writes are refused", async () => {
  const full = new Error("no space left on device");
  const r = recorder(0, (text) => (text.includes("bad") ? full : undefined));
  const told: unknown[] = [];
  const s = batchedSinks(r.out, r.err, (e) => told.push(e));
  s.out.write("good\n");
  await s.drained();
  s.out.write("bad\n");
  await turn();
  await turn();
  expect(s.out.write("later\n")).toBe(false);
  await expect(s.drained()).rejects.toBe(full);
  expect(told).toEqual([full]);
  expect(r.writes).toEqual([["out", "good\n"]]);
});
