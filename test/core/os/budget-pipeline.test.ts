/** The pipeline refuses an oversized argv prompt before anything is spawned; and who may pass the prompt in argv at all. */
import { describe, expect, test } from "bun:test";
import { createRegistry } from "../../../src/core/agents/registry.ts";
import { validateAdapter } from "../../../src/core/contract/adapter.ts";
import { PROMPT_TOO_LARGE_HINT } from "../../../src/core/os/budget.ts";
import { defineAdapter, defineLinesProtocol } from "../../../src/plugin.ts";
import { type Expectations, promptRouteProblems } from "../../adapters/conformance.ts";
import { collect, finished, installFake, ofType, tmpdir } from "../../helpers.ts";
import { runAgent } from "../../support/run.ts";

/** An argv-only adapter driven by the fake agent, for the pipeline. */
function argvAdapter(bin: string) {
  return defineAdapter({
    id: "fake-argv",
    name: "Fake Argv Agent",
    install: "nothing to install",
    bin,
    capabilities: { streaming: true, resume: false, readOnly: false },
    prompt: { via: "argv", maxPromptArgBytes: 30_000 },
    invoke: (ctx) => ({ argv: ["exec", "--auto", ctx.prompt] }),
    protocol: defineLinesProtocol({
      createState: () => ({}),
      parse: (record, _state, l) => [{ type: "text.delta", id: "t", text: (record as { v?: string })?.v ?? l }],
    }),
  });
}

async function pipeline(bin: string, prompt: string, platform: NodeJS.Platform, install = true) {
  await using tmp = tmpdir();
  const fake = installFake(tmp.path, bin, [{ stdout: { t: "text", v: "ran" } }]);
  const env = install ? fake.env : { ...fake.env, PATH: "/nonexistent" };
  const events = await collect(
    runAgent({ agent: "fake-argv", prompt, cwd: tmp.path }, { registry: createRegistry([argvAdapter(bin)]), env, platform }),
  );
  let argv: string[] | undefined;
  try {
    argv = fake.recorded().argv;
  } catch {}
  return { events, argv };
}

describe("the pipeline refuses before spawn", () => {
  test("over the raw budget: one error, a failed run.finished, before the executable is even resolved", async () => {
    const { events, argv } = await pipeline("fake-argv", "x".repeat(100_001), "linux", false);
    expect(argv).toBeUndefined();
    expect(events.map((e) => e.type)).toEqual(["error", "run.result", "run.finished"]);
    const [error] = ofType(events, "error");
    expect(error).toMatchObject({ code: "AGENT_PROMPT_TOO_LARGE", hint: PROMPT_TOO_LARGE_HINT, retryable: false });
    expect(error!.message).toContain("Fake Argv Agent");
    expect(error!.message).toContain("(100001 > 100000 bytes");
    expect(finished(events)).toMatchObject({ status: "failed", exitCode: null });
  });

  test("a quote-heavy prompt inside the raw budget but over the projected .exe line is refused; a shorter one runs", async () => {
    const refused = await pipeline("fake-argv", '"'.repeat(16_300), "win32");
    expect(refused.argv).toBeUndefined();
    expect(refused.events.map((e) => e.type)).toEqual(["error", "run.result", "run.finished"]);
    expect(ofType(refused.events, "error")[0]!.message).toContain("CreateProcess");
    expect(finished(refused.events).status).toBe("failed");

    const ran = await pipeline("fake-argv", '"'.repeat(16_000), "win32");
    expect(ran.argv).toEqual(["exec", "--auto", '"'.repeat(16_000)]);
    expect(finished(ran.events).status).toBe("succeeded");
  });

  test("a 9,000-character prompt to a .cmd adapter is refused with cmd.exe named; off Windows it runs intact", async () => {
    const prompt = "%PATH% ".repeat(1_286).slice(0, 9_000);
    const refused = await pipeline("fake-argv.cmd", prompt, "win32");
    expect(refused.argv).toBeUndefined();
    expect(ofType(refused.events, "error")[0]).toMatchObject({ code: "AGENT_PROMPT_TOO_LARGE" });
    expect(ofType(refused.events, "error")[0]!.message).toContain("cmd.exe");
    expect(finished(refused.events).status).toBe("failed");

    const ran = await pipeline("fake-argv.cmd", prompt, "linux");
    expect(ran.argv).toEqual(["exec", "--auto", prompt]);
  });
});

describe("conformance: who may pass the prompt in argv", () => {
  const base = argvAdapter("fake-argv");
  const withPrompt = (prompt: object, invoke = base.invoke) => validateAdapter({ ...base, prompt, invoke });
  test.each([
    [
      "an argv-only CLI with a budget",
      withPrompt({ via: "argv", maxPromptArgBytes: 30_000 }),
      { readOnly: [], promptRoutes: ["argv"] },
      [],
    ],
    [
      "an argv adapter whose CLI also reads stdin",
      withPrompt({ via: "argv", maxPromptArgBytes: 30_000 }),
      { readOnly: [], promptRoutes: ["argv", "stdin"] },
      ["reads the prompt from stdin"],
    ],
    [
      "an argv adapter that does not say how its CLI takes prompts",
      withPrompt({ via: "argv", maxPromptArgBytes: 30_000 }),
      undefined,
      ["promptRoutes"],
    ],
    [
      "an argv budget no Windows command line can hold",
      withPrompt({ via: "argv", maxPromptArgBytes: 40_000 }),
      { readOnly: [], promptRoutes: ["argv"] },
      ["cannot fit"],
    ],
    [
      "an argv adapter that also writes stdin",
      withPrompt({ via: "argv", maxPromptArgBytes: 30_000 }, (ctx) => ({ argv: [ctx.prompt], stdin: "" })),
      { readOnly: [], promptRoutes: ["argv"] },
      ["writes stdin"],
    ],
    [
      "a stdin adapter with an argv budget",
      withPrompt({ via: "stdin", maxPromptArgBytes: 30_000 }),
      undefined,
      ["drop prompt.maxPromptArgBytes"],
    ],
    ["a stdin adapter", withPrompt({ via: "stdin" }), { readOnly: [], promptRoutes: ["stdin", "argv"] }, []],
  ] as const)("%s", (_name, adapter, expectations, problems) => {
    const found = promptRouteProblems(adapter, expectations as Expectations | undefined);
    expect(found).toHaveLength(problems.length);
    problems.forEach((p, i) => expect(found[i]).toContain(p));
  });

  test("the adapter schema already refuses an argv adapter without a budget", () => {
    expect(() => withPrompt({ via: "argv" })).toThrow(/maxPromptArgBytes/);
  });
});
