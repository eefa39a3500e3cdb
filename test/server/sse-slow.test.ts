import { expect, test } from "bun:test";
import { Hono } from "hono";
import { runEvents } from "../../src/server/sse.ts";
import { tmpdir } from "../helpers.ts";
import { eventsOf, readFrames, testApp } from "./support.ts";

test("a reader far behind a live run reads it from the log at its own pace: every event once, in order", async () => {
  await using tmp = tmpdir();
  const deltas = Array.from({ length: 600 }, (_, i) => ({ stdout: { t: "text", v: `d${i}` } }));
  const { runs } = testApp(tmp.path, [...deltas, { sleep: 300 }, ...deltas]);
  const { runId } = await runs.start({ agent: "fake", prompt: "go", cwd: tmp.path, mode: "read-only" }, { origin: "serve" });
  const app = new Hono().get("/e", (c) => runEvents(c, runs, runId, -1));
  const reader = (await app.request("/e")).body!.getReader();
  let pulls = 0;
  // Slow at first: the run gets hundreds of events ahead (into the file), then the reader catches up with the live tail.
  const frames = await readFrames(
    new ReadableStream({
      async pull(controller) {
        if (pulls++ < 2) await Bun.sleep(200);
        const { value, done } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
    }),
  );
  const events = eventsOf(frames);
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
  expect(events.filter((e) => e.type === "text.delta").map((e) => (e.type === "text.delta" ? e.text : ""))).toEqual(
    [...deltas, ...deltas].map((d) => d.stdout.v),
  );
  expect(events.at(-1)?.type).toBe("run.finished");
});
