import { expect, test } from "bun:test";
import { batchedSinks } from "../../src/cli/batched.ts";

function recorder() {
  const writes: Array<[string, string]> = [];
  const sink = (name: string) => ({ write: (text: string) => writes.push([name, text]) });
  return { writes, out: sink("out"), err: sink("err") };
}

test("a burst is one write per stream, in order, once the event loop turns", async () => {
  const r = recorder();
  const s = batchedSinks(r.out, r.err);
  for (let i = 0; i < 1000; i++) s.out.write(`${i}\n`);
  s.err.write("note\n");
  s.out.write("after\n");
  expect(r.writes).toEqual([]);
  await new Promise((resolve) => setImmediate(resolve));
  expect(r.writes.map(([to]) => to)).toEqual(["out", "err", "out"]);
  expect(r.writes[0]![1].split("\n")).toHaveLength(1001);
  expect(r.writes.slice(1)).toEqual([
    ["err", "note\n"],
    ["out", "after\n"],
  ]);
});

test("flush writes what is held at once, and nothing twice", async () => {
  const r = recorder();
  const s = batchedSinks(r.out, r.err);
  s.out.write("a");
  s.flush();
  expect(r.writes).toEqual([["out", "a"]]);
  await new Promise((resolve) => setImmediate(resolve));
  expect(r.writes).toEqual([["out", "a"]]);
});
