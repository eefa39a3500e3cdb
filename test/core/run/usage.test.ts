import { describe, expect, test } from "bun:test";
import { loadRegistry } from "../../../src/builtins.ts";
import { createRegistry } from "../../../src/core/agents/registry.ts";
import { OdEvent, type OdEventBody } from "../../../src/core/contract/events.ts";
import { UsageMeter, type UsageTotals } from "../../../src/core/run/usage.ts";
import { collect, DIST_OD, installFake, ofType, tmpdir } from "../../helpers.ts";
import { eventsOf, readFrames, testApp } from "../../server/support.ts";
import { fakeAdapter } from "../../support/fake-adapter.ts";
import { runAgent } from "../../support/run.ts";

const started = (model?: string): OdEventBody => ({ type: "run.started", agent: "a", bin: "a", argv: [], cwd: "/", mode: "edit", model });
const turn = (inputTokens: number, outputTokens: number, costUsd?: number): OdEventBody => ({
  type: "usage",
  inputTokens,
  outputTokens,
  costUsd,
  source: "turn",
});
const total = (inputTokens: number, outputTokens: number): OdEventBody => ({ type: "usage", inputTokens, outputTokens, source: "run" });

/** Bodies in, totals out: one row per rule of the meter. */
const rows: Array<[string, OdEventBody[], UsageTotals | undefined]> = [
  ["no usage reported: no totals, not zeros", [started(), { type: "text.delta", id: "t", text: "hi" }], undefined],
  ["turns add up", [started(), turn(10, 5), turn(10, 5)], { inputTokens: 20, outputTokens: 10 }],
  [
    "cost adds up too, and only the figures reported appear",
    [started(), turn(1, 2, 0.5), turn(3, 4, 0.25)],
    { inputTokens: 4, outputTokens: 6, costUsd: 0.75 },
  ],
  [
    "a run total is taken at its word, not added to the turns",
    [started(), turn(10, 5), turn(10, 5), total(25, 12)],
    { inputTokens: 25, outputTokens: 12 },
  ],
  [
    "a run total replaces every turn of its attempt, whichever model they were counted under",
    [started(), turn(10, 5), { type: "session", sessionId: "s", model: "m2" }, turn(10, 5), total(25, 12)],
    { inputTokens: 25, outputTokens: 12, byModel: { m2: { inputTokens: 25, outputTokens: 12 } } },
  ],
  ["a retried run pays for every attempt", [started(), turn(10, 5), started(), turn(7, 1)], { inputTokens: 17, outputTokens: 6 }],
  [
    "per model, where the agent names it",
    [started("m1"), turn(10, 5), { type: "session", sessionId: "s", model: "m2" }, turn(1, 1)],
    { inputTokens: 11, outputTokens: 6, byModel: { m1: { inputTokens: 10, outputTokens: 5 }, m2: { inputTokens: 1, outputTokens: 1 } } },
  ],
  [
    "a count that is no finite, non-negative number is left out",
    [started(), turn(-5, Number.POSITIVE_INFINITY), turn(3, 4)],
    { inputTokens: 3, outputTokens: 4 },
  ],
];

describe("usage totals", () => {
  for (const [name, bodies, expected] of rows)
    test(name, () => {
      const meter = new UsageMeter();
      for (const b of bodies) meter.observe(b);
      expect(meter.totals()).toEqual(expected);
    });

  const twoTurns = [
    { read: "all" },
    { stdout: { t: "usage", in: 10, out: 5 } },
    { stdout: { t: "text", v: "ok" } },
    { stdout: { t: "usage", in: 10, out: 5 } },
  ] as const;

  test("a run with several usage events reports their sum in run.result", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-agent", [...twoTurns]);
    const events = await collect(
      runAgent({ agent: "fake", prompt: "x", cwd: tmp.path }, { registry: createRegistry([fakeAdapter]), env: fake.env }),
    );
    expect(ofType(events, "run.result")[0]!.usage).toEqual({ inputTokens: 20, outputTokens: 10 });
  });

  test("od serve's runs carry the same sum in their run.result", async () => {
    await using tmp = tmpdir();
    const { request } = testApp(tmp.path, [...twoTurns]);
    const { runId } = (await (
      await request("/api/runs", { method: "POST", json: { agent: "fake", prompt: "x", cwd: tmp.path } })
    ).json()) as { runId: string };
    const events = eventsOf(await readFrames((await request(`/api/runs/${runId}/events`)).body!));
    expect(ofType(events, "run.result")[0]!.usage).toEqual({ inputTokens: 20, outputTokens: 10 });
    expect(events.at(-1)!.type).toBe("run.finished");
  });

  test("od run's closing line shows the sum, in text and in --json", async () => {
    await using tmp = tmpdir();
    const turnDone = {
      type: "turn.completed",
      usage: { input_tokens: 10, cached_input_tokens: 0, output_tokens: 5, reasoning_output_tokens: 0 },
    };
    const script = [
      { read: "all" },
      { stdout: { type: "thread.started", thread_id: "t-1" } },
      { stdout: { type: "item.completed", item: { id: "i0", type: "agent_message", text: "done" } } },
      { stdout: turnDone },
      { stdout: turnDone },
    ];
    const fake = installFake(tmp.path, "codex", script);
    const od = (...args: string[]) =>
      Bun.spawnSync([DIST_OD, "run", "--agent", "codex", "--cwd", tmp.path, ...args, "go"], { env: fake.env });
    const text = od();
    expect(text.stderr.toString()).toContain("20 in / 10 out tokens");
    const json = od("--json")
      .stdout.toString()
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(json.find((e) => e.type === "run.result").usage).toMatchObject({ inputTokens: 20, outputTokens: 10 });
  });
});

describe("counts that are no counts", () => {
  test("a negative or overflowing token count never becomes an event: the figure is left out, the rest kept", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-agent", [
      { read: "all" },
      { raw: '{"t":"usage","in":-5,"out":1e400,"cost":0.25}\n' },
      { stdout: { t: "text", v: "ok" } },
    ]);
    const events = await collect(
      runAgent({ agent: "fake", prompt: "x", cwd: tmp.path }, { registry: createRegistry([fakeAdapter]), env: fake.env }),
    );
    const [usage] = ofType(events, "usage");
    expect(usage).toMatchObject({ costUsd: 0.25 });
    expect(usage!.inputTokens).toBeUndefined();
    expect(usage!.outputTokens).toBeUndefined();
    for (const e of events) expect(OdEvent.safeParse(e).success).toBe(true);
    expect(ofType(events, "run.result")[0]!.usage).toEqual({ costUsd: 0.25 });
  });

  test("a built-in parser's figures are held to it too (built-ins skip the schema check)", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "codex", [
      { read: "all" },
      { stdout: { type: "item.completed", item: { id: "i0", type: "agent_message", text: "done" } } },
      { raw: '{"type":"turn.completed","usage":{"input_tokens":-5,"cached_input_tokens":0,"output_tokens":1e400}}\n' },
    ]);
    const events = await collect(
      runAgent({ agent: "codex", prompt: "x", cwd: tmp.path }, { registry: await loadRegistry([]), env: fake.env }),
    );
    for (const e of events) expect(OdEvent.safeParse(e).success).toBe(true);
    expect(ofType(events, "run.result")[0]!.usage?.inputTokens).toBeUndefined();
  });
});
