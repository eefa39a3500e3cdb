import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createRegistry } from "../../../src/core/agents/registry.ts";
import { validateAdapter } from "../../../src/core/contract/adapter.ts";
import { errorFromText } from "../../../src/core/protocols/classify-text.ts";
import { createRun } from "../../../src/core/run/pipeline.ts";
import { delayFor, retryAfterMs } from "../../../src/core/run/retry.ts";
import { collect, finished, installFake, ofType, tmpdir } from "../../helpers.ts";
import { fakeAdapter } from "../../support/fake-adapter.ts";

/** The fake adapter, reporting errors the way a real parser does (classified text). */
const adapter = validateAdapter({
  ...fakeAdapter,
  protocol: {
    ...fakeAdapter.protocol,
    parse: (record: unknown, state: unknown, line: string) => {
      const r = record as { t?: string; v?: string };
      if (r.t === "fail") return [errorFromText(r.v ?? "", { name: "Fake Agent", login: "fake login" })];
      return fakeAdapter.protocol.parse(record, state as never, line);
    },
  },
});
const registry = createRegistry([adapter]);
const slept: number[] = [];
const sleep = async (ms: number) => void slept.push(ms);
const policy = { attempts: 3, baseMs: 100, maxMs: 5000 };

async function run(
  first: unknown[],
  later: unknown[],
  request: Record<string, unknown> = {},
  over: Partial<typeof policy> & { fallbackModel?: string } = {},
) {
  await using tmp = tmpdir();
  const fake = installFake(tmp.path, "fake-agent", [{ read: "all" }, { firstTime: join(tmp.path, "marker"), then: first, else: later }]);
  slept.length = 0;
  const events = await collect(
    createRun({ agent: "fake", prompt: "x", cwd: tmp.path, ...request } as never, {
      registry,
      env: fake.env,
      retry: { ...policy, ...over },
      wait: sleep,
    }),
  );
  return { events, argv: fake.recorded().argv };
}

describe("retry", () => {
  test("a rate limit is retried after backoff, visibly, in one stream with one run.finished", async () => {
    const { events } = await run(
      [{ stdout: { t: "fail", v: "429 Too Many Requests: retry after 3" } }],
      [{ stdout: { t: "text", v: "recovered" } }],
    );
    expect(ofType(events, "status").map((e) => e.label)).toEqual(["retrying"]);
    expect(slept).toEqual([3000]); // the error's own retry-after wins over the 100 ms backoff
    expect(finished(events).status).toBe("succeeded");
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
    expect(new Set(events.map((e) => e.runId)).size).toBe(1);
  });

  test("a retry that succeeds is summed up by its last attempt: its text, no error; usage from both", async () => {
    const { events } = await run(
      [{ stdout: { t: "text", v: "partial " } }, { stdout: { t: "usage", in: 3, out: 1 } }, { stdout: { t: "fail", v: "529 Overloaded" } }],
      [{ stdout: { t: "text", v: "recovered" } }, { stdout: { t: "usage", in: 5, out: 2 } }],
    );
    expect(finished(events).status).toBe("succeeded");
    const [result] = ofType(events, "run.result");
    expect(result).toMatchObject({ text: "recovered", errorCode: undefined, usage: { inputTokens: 8, outputTokens: 3 } });
  });

  test("an overloaded server is retried; an auth failure never is", async () => {
    const overloaded = await run([{ stdout: { t: "fail", v: "529 Overloaded" } }], [{ stdout: { t: "text", v: "ok" } }]);
    expect(finished(overloaded.events).status).toBe("succeeded");
    const auth = await run([{ stdout: { t: "fail", v: "401 invalid api key" } }], [{ stdout: { t: "text", v: "never" } }]);
    expect(ofType(auth.events, "status").filter((e) => e.label === "retrying")).toEqual([]);
    expect(ofType(auth.events, "error")[0]?.code).toBe("AGENT_AUTH_REQUIRED");
    expect(slept).toEqual([]);
  });

  test("a wait asked for beyond the policy's longest is not sat through: the failure stands", async () => {
    const { events } = await run(
      [{ stdout: { t: "fail", v: "429 Too Many Requests: retry after 3600" } }],
      [{ stdout: { t: "text", v: "never" } }],
    );
    expect(ofType(events, "status").filter((e) => e.label === "retrying")).toEqual([]);
    expect(slept).toEqual([]);
    expect(finished(events).status).toBe("failed");
  });

  test("a cancel during the wait, or as it is announced, ends the run at once, cancelled", async () => {
    for (const when of ["during the wait", "as it is announced"]) {
      await using tmp = tmpdir();
      const fake = installFake(tmp.path, "fake-agent", [{ read: "all" }, { stdout: { t: "fail", v: "503 Service Unavailable" } }]);
      const controller = new AbortController();
      const forever = (_ms: number, signal?: AbortSignal) => new Promise((resolve) => signal?.addEventListener("abort", resolve)); // only a cancel ends it
      const events = [];
      for await (const e of createRun(
        { agent: "fake", prompt: "x", cwd: tmp.path },
        { registry, env: fake.env, signal: controller.signal, retry: policy, wait: forever },
      )) {
        events.push(e);
        if (e.type === "status" && e.label === "retrying")
          when === "during the wait" ? setTimeout(() => controller.abort(), 10) : controller.abort();
      }
      expect({ when, status: finished(events).status }).toEqual({ when, status: "cancelled" });
      expect(ofType(events, "run.finished")).toHaveLength(1);
    }
  });

  test("bounded: the last attempt's failure ends the run", async () => {
    const { events } = await run(
      [{ stdout: { t: "fail", v: "503 Service Unavailable" } }],
      [{ stdout: { t: "fail", v: "503 Service Unavailable" } }],
    );
    expect(ofType(events, "status").filter((e) => e.label === "retrying")).toHaveLength(2);
    expect(finished(events).status).toBe("failed");
  });

  test("a run that already called a tool is not repeated", async () => {
    const { events } = await run(
      [{ stdout: { t: "tool", id: "c1", name: "Write" } }, { stdout: { t: "fail", v: "429 rate limit" } }],
      [{ stdout: { t: "text", v: "no" } }],
    );
    expect(ofType(events, "status").filter((e) => e.label === "retrying")).toEqual([]);
    expect(finished(events).status).toBe("failed");
  });

  test("a declared fallback model is announced and used on a rate limit", async () => {
    const { events, argv } = await run(
      [{ stdout: { t: "fail", v: "429 rate limited" } }],
      [{ stdout: { t: "text", v: "ok" } }],
      { model: "big" },
      { fallbackModel: "auto" },
    );
    expect(ofType(events, "status")[0]?.detail).toContain("falling back to model auto");
    expect(argv).toEqual(["--mode", "edit", "--model", "auto"]);
  });

  test("backoff doubles, is capped, and never undercuts retry-after", () => {
    const fixed = () => 1;
    expect([1, 2, 3, 4, 5, 6, 7].map((a) => delayFor(a, policy, [], fixed))).toEqual([100, 200, 400, 800, 1600, 3200, 5000]);
    expect(delayFor(1, policy, [{ message: "slow down, Retry-After: 500ms" }], fixed)).toBe(500);
    expect(retryAfterMs("no hint here")).toBe(0);
  });
});
