import { createRegistry } from "../../src/core/agents/registry.ts";
import type { OdEvent } from "../../src/core/contract/events.ts";
import { Slots } from "../../src/core/os/slots.ts";
import { Runs } from "../../src/core/runs/service.ts";
import { RunLog } from "../../src/core/store/run-log.ts";
import { runsDirOf } from "../../src/core/workspace/apply.ts";
import { createApp } from "../../src/server/app.ts";
import { type FakeStep, installFake } from "../helpers.ts";
import { fakeAcpAdapter, fakeAdapter } from "../support/fake-adapter.ts";

export const TOKEN = "test-token-123";
export const HOST = "127.0.0.1:7456";
export const registry = createRegistry([fakeAdapter, fakeAcpAdapter]);

/** An in-process app over a fake agent in `dir`, the way hono's own tests use `app.request()`. */
export function testApp(
  dir: string,
  script: FakeStep[],
  opts: { maxRuns?: number; heartbeatMs?: number; log?: RunLog; warn?: (message: string) => void } = {},
) {
  const fake = installFake(dir, "fake-agent", script);
  // The home's run log, as a server's: where group.json and `od apply` look too.
  const log = opts.log ?? new RunLog(runsDirOf(fake.env));
  const runs = new Runs({ registry, log, slots: new Slots(opts.maxRuns ?? 8), env: fake.env, warn: opts.warn });
  const app = createApp({
    registry,
    runs,
    token: TOKEN,
    allowedHosts: [HOST],
    env: fake.env,
    heartbeatMs: opts.heartbeatMs,
    maxBodyBytes: 64 * 1024,
  });
  const request = (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const headers = new Headers({
      host: HOST,
      "x-od-token": TOKEN,
      ...(init.json !== undefined ? { "content-type": "application/json" } : {}),
    });
    for (const [k, v] of new Headers(init.headers)) headers.set(k, v);
    return app.request(path, { ...init, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.body });
  };
  return { app, runs, log, fake, request };
}

export interface Frame {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
}

/** Parses an SSE body into frames (comments included), reading until the stream ends or `until` says stop. */
export async function readFrames(body: ReadableStream<Uint8Array>, until?: (f: Frame) => boolean): Promise<Frame[]> {
  const frames: Frame[] = [];
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  while (true) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += decoder.decode(value, { stream: true });
    let i: number;
    while ((i = buf.indexOf("\n\n")) >= 0) {
      const block = buf.slice(0, i);
      buf = buf.slice(i + 2);
      const f: Frame = {};
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) f.comment = line.slice(1).trim();
        else {
          const [k, ...rest] = line.split(":");
          const v = rest.join(":").replace(/^ /, "");
          if (k === "id" || k === "event" || k === "data") f[k] = v;
        }
      }
      frames.push(f);
      if (until?.(f)) {
        await reader.cancel();
        return frames;
      }
    }
  }
  return frames;
}

export const eventsOf = (frames: Frame[]) => frames.filter((f) => f.data).map((f) => JSON.parse(f.data!) as OdEvent);
