// The api adapter end to end through runAgent, against the loopback stub of both APIs.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { OdEvent } from "../../../src/core/contract/events.ts";
import { finished, ofType, tmpdir } from "../../helpers.ts";
import { startModelStub } from "../../live/model-stub.ts";
import { PROVIDERS, real, runApi, stubEnv, toolResultsSent } from "./harness.ts";

const stub = await startModelStub();
afterAll(() => stub.stop());

const text = (events: OdEvent[]) =>
  ofType(events, "text.delta")
    .map((e) => e.text)
    .join("");

function expectPaired(events: OdEvent[]) {
  const calls = ofType(events, "tool.call").map((e) => e.id);
  const results = ofType(events, "tool.result").map((e) => e.id);
  expect(results).toEqual(calls);
  expect(new Set(calls).size).toBe(calls.length);
}

describe.each(PROVIDERS)("api loop (%s)", (provider) => {
  test("a multi-step edit task completes: Read, Edit, then Write and Read in one turn; the files are right", async () => {
    await using tmp = tmpdir();
    const cwd = join(tmp.path, "project");
    mkdirSync(join(cwd, "src"), { recursive: true });
    writeFileSync(join(cwd, "src/greet.txt"), "Hello, world!\nBye.\n");
    stub.script({
      kind: "script",
      steps: [
        { tools: [{ name: "Read", args: { path: "src/greet.txt" } }] },
        { tools: [{ name: "Edit", args: { path: "src/greet.txt", old_string: "world", new_string: "od" } }] },
        {
          tools: [
            { name: "Write", args: { path: "notes/done.md", content: "# Done\n" } },
            { name: "Read", args: { path: join(real(cwd), "notes/done.md") } },
          ],
        },
        { text: "All done." },
      ],
    });
    const before = stub.requests.length;
    const events = await runApi({ cwd }, stubEnv(stub, provider, tmp.path));

    expect(ofType(events, "error")).toEqual([]);
    expect(finished(events)).toMatchObject({ status: "succeeded", exitCode: 0, signal: null, resumable: true });
    expect(readFileSync(join(cwd, "src/greet.txt"), "utf8")).toBe("Hello, od!\nBye.\n");
    expect(readFileSync(join(cwd, "notes/done.md"), "utf8")).toBe("# Done\n");
    expect(text(events)).toBe("All done.");
    expectPaired(events);
    expect(ofType(events, "tool.call").map((e) => e.name)).toEqual(["Read", "Edit", "Write", "Read"]);
    // Each call says what it does and the file it acts on, as the model named it (relative to the project, or not).
    expect(ofType(events, "tool.call").map((e) => [e.kind, e.paths])).toEqual([
      ["read", ["src/greet.txt"]],
      ["edit", ["src/greet.txt"]],
      ["edit", ["notes/done.md"]],
      ["read", [join(real(cwd), "notes/done.md")]],
    ]);
    expect(ofType(events, "tool.result").map((e) => e.isError)).toEqual([false, false, false, false]);
    expect(ofType(events, "tool.result")[0]!.output).toBe("Hello, world!\nBye.\n");
    expect(ofType(events, "tool.result")[3]!.output).toBe("# Done\n");
    // Four model turns: each a request whose tools were Read, Write and Edit, and the last saw every result.
    const mine = stub.requests.slice(before);
    expect(mine).toHaveLength(4);
    for (const r of mine) expect(r.toolNames).toEqual(["Read", "Write", "Edit"]);
    expect(toolResultsSent(stub)).toContain("Hello, world!\nBye.\n");
    // Usage: one per turn, then the run's total.
    const usage = ofType(events, "usage");
    expect(usage.map((u) => u.source)).toEqual(["turn", "turn", "turn", "turn", "run"]);
    expect(usage.at(-1)!.inputTokens).toBe(48);
    expect(usage.at(-1)!.costUsd).toBeUndefined();
    // The session is announced first, with the model.
    const session = ofType(events, "session")[0]!;
    expect(session.model).toBe("stub-model");
    expect(finished(events).sessionId).toBe(session.sessionId);
    expect(events[0]).toMatchObject({ type: "run.started", agent: "api", bin: "od:api", argv: ["od:api"] });
  });

  test("read-only offers only Read, and a Write the model tries anyway is refused", async () => {
    await using tmp = tmpdir();
    stub.script({ kind: "script", steps: [{ tools: [{ name: "Write", args: { path: "x.txt", content: "x" } }] }, { text: "ok" }] });
    const before = stub.requests.length;
    const events = await runApi({ cwd: tmp.path, mode: "read-only" }, stubEnv(stub, provider, tmp.path));
    expect(stub.requests[before]!.toolNames).toEqual(["Read"]);
    expect(ofType(events, "tool.result")[0]).toMatchObject({ isError: true, output: "Refused: Write is not available in read-only mode" });
    expect(existsSync(join(tmp.path, "x.txt"))).toBe(false);
    expect(finished(events).status).toBe("succeeded");
  });

  test("thinking streams as thinking.delta, apart from the text", async () => {
    await using tmp = tmpdir();
    stub.script({ kind: "thinking", thinking: "hmm, let me see", text: "the answer" });
    const events = await runApi({ cwd: tmp.path }, stubEnv(stub, provider, tmp.path));
    expect(
      ofType(events, "thinking.delta")
        .map((e) => e.text)
        .join(""),
    ).toBe("hmm, let me see");
    expect(text(events)).toBe("the answer");
    expect(finished(events).status).toBe("succeeded");
  });

  test("resume continues the saved conversation under the same session id", async () => {
    await using tmp = tmpdir();
    const env = stubEnv(stub, provider, tmp.path);
    stub.script({ kind: "tool-write", file: "first.txt", content: "one", finalText: "wrote it" });
    const first = await runApi({ cwd: tmp.path, prompt: "FIRST PROMPT" }, env);
    const sessionId = finished(first).sessionId!;
    expect(readFileSync(join(tmp.path, "first.txt"), "utf8")).toBe("one");

    stub.script({ kind: "chat", text: "continued" });
    const second = await runApi({ cwd: tmp.path, prompt: "SECOND PROMPT", resume: sessionId }, env);
    expect(finished(second)).toMatchObject({ status: "succeeded", sessionId });
    expect(text(second)).toBe("continued");
    const sent = JSON.stringify(stub.requests.at(-1)!.body);
    for (const part of ["FIRST PROMPT", "wrote it", "SECOND PROMPT"]) expect(sent).toContain(part);
    expect(stub.requests.at(-1)!.lastUserText).toBe("SECOND PROMPT");

    const unknown = await runApi({ cwd: tmp.path, resume: "api-nope" }, env);
    expect(ofType(unknown, "error")[0]).toMatchObject({ code: "INVALID_REQUEST" });
    const hostile = await runApi({ cwd: tmp.path, resume: "../../etc/passwd" }, env);
    expect(ofType(hostile, "error")[0]).toMatchObject({ code: "INVALID_REQUEST" });
  });

  test("a turn limit stops a model that never stops calling tools, with a clear error", async () => {
    await using tmp = tmpdir();
    writeFileSync(join(tmp.path, "a.txt"), "a");
    stub.script({ kind: "script", steps: [{ tools: [{ name: "Read", args: { path: "a.txt" } }] }] });
    const events = await runApi({ cwd: tmp.path }, stubEnv(stub, provider, tmp.path, { OD_API_MAX_TURNS: "3" }));
    expect(ofType(events, "tool.call")).toHaveLength(3);
    expectPaired(events);
    const error = ofType(events, "error")[0]!;
    expect(error).toMatchObject({ code: "AGENT_ERROR", message: "Stopped after 3 model turns (the limit is 3)" });
    expect(error.hint).toContain("--resume");
    expect(finished(events).status).toBe("failed");
  });

  test("a token budget stops the loop before the next request", async () => {
    await using tmp = tmpdir();
    writeFileSync(join(tmp.path, "a.txt"), "a");
    stub.script({ kind: "script", steps: [{ tools: [{ name: "Read", args: { path: "a.txt" } }] }] });
    const before = stub.requests.length;
    const events = await runApi({ cwd: tmp.path }, stubEnv(stub, provider, tmp.path, { OD_API_MAX_TOKENS: "40" }));
    expect(stub.requests.length - before).toBe(2); // 12 + 20 tokens each: over 40 after the second
    expect(ofType(events, "error")[0]!.message).toMatch(/^Stopped after \d+ tokens in 2 turns \(the budget is 40\)$/);
    expect(ofType(events, "usage").at(-1)).toMatchObject({ source: "run", inputTokens: 24, outputTokens: 40 });
  });

  test("skills come through the prompt", async () => {
    await using tmp = tmpdir();
    const dir = join(tmp.path, "skills/shout");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "SKILL.md"), "---\nname: shout\ndescription: Answer loudly\n---\nANSWER IN CAPITALS.");
    const { loadSkills } = await import("../../../src/builtins.ts");
    const skills = await loadSkills([join(tmp.path, "skills")], { HOME: tmp.path });
    stub.script({ kind: "chat", text: "OK" });
    const events = await runApi({ cwd: tmp.path, skills: ["shout"] }, stubEnv(stub, provider, tmp.path), { skills });
    expect(finished(events).status).toBe("succeeded");
    expect(stub.requests.at(-1)!.lastUserText).toContain("ANSWER IN CAPITALS.");
  });
});
