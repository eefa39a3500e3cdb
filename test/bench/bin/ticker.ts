#!/usr/bin/env bun
/**
 * A fake Claude Code for the latency benchmark: prints a real stream-json
 * opening, then `count` text deltas, each carrying the moment it is written
 * ("@<epoch ms>#<index>;"), then the real closing records. Every line goes out
 * with a blocking write, so the stamp is when the bytes enter the pipe.
 * $TICK_SPEC names a JSON file: { head: string[], delta: string (with @@TEXT@@), tail: string[], count, intervalMs }.
 */
import { readFileSync, writeSync } from "node:fs";

const spec = JSON.parse(readFileSync(process.env.TICK_SPEC!, "utf8")) as {
  head: string[];
  delta: string;
  tail: string[];
  count: number;
  intervalMs: number;
};
const [before, after] = spec.delta.split("@@TEXT@@") as [string, string];
const write = (s: string) => {
  const bytes = Buffer.from(s);
  for (let off = 0; off < bytes.length; ) off += writeSync(1, bytes, off);
};

write(`${spec.head.join("\n")}\n`);
for (let i = 0; i < spec.count; i++) {
  if (spec.intervalMs > 0) await Bun.sleep(spec.intervalMs);
  write(`${before}@${performance.timeOrigin + performance.now()}#${i};${after}\n`);
}
write(`${spec.tail.join("\n")}\n`);
process.exit(0);
