import { expect, test } from "bun:test";
import { Hono } from "hono";
import { runEvents } from "../../src/server/sse.ts";
import { tmpdir } from "../helpers.ts";
import { eventsOf, readFrames, testApp } from "./support.ts";

test("a reader that falls behind is served from the log: bounded queue, every event once, in order", async () => {
  await using tmp = tmpdir();
  const deltas = Array.from({ length: 200 }, (_, i) => ({ stdout: { t: "text", v: `d${i}` } }));
  const { runs } = testApp(tmp.path, [...deltas, { sleep: 100 }, ...deltas]);
  let attaches = 0;
  const subscribe = runs.subscribe.bind(runs);
  runs.subscribe = (...args) => (attaches++, subscribe(...args));
  const runId = runs.start({ agent: "fake", prompt: "go", cwd: tmp.path, mode: "read-only" });
  const app = new Hono().get("/e", (c) => runEvents(c, runs, runId, -1, 15_000, 4));
  const reader = (await app.request("/e")).body!.getReader();
  let read = 0;
  // Read slowly at first, so the run gets far ahead of this client.
  const frames = await readFrames(
    new ReadableStream({
      async pull(controller) {
        if (read++ < 3) await Bun.sleep(150);
        const { value, done } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
    }),
  );
  const events = eventsOf(frames);
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
  expect(events.filter((e) => e.type === "text.delta")).toHaveLength(400);
  expect(events.at(-1)?.type).toBe("run.finished");
  expect(attaches).toBeGreaterThan(1);
});
