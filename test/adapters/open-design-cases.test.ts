/**
 * Open Design's own parser cases that od failed, run through the whole pipeline with a fake CLI
 * printing their shapes: Codex's separate agent_message items stay separate paragraphs in the
 * stream (anyone who joins the deltas as they come reads them apart), and an OpenCode provider
 * error fails the run even when opencode exits 0.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { loadRegistry } from "../../src/builtins.ts";
import type { OdEvent } from "../../src/core/contract/events.ts";
import { collect, FIXTURES, finished, installFake, ofType, tmpdir } from "../helpers.ts";
import { runAgent } from "../support/run.ts";

const registry = await loadRegistry([]);

/** A run of `agent` against a fake CLI that reads the prompt, then takes `steps`. */
async function run(agent: string, steps: unknown[]): Promise<OdEvent[]> {
  await using tmp = tmpdir();
  const fake = installFake(tmp.path, agent, [{ read: "all" }, { ifStdin: " ", then: steps }]);
  return await collect(runAgent({ agent, prompt: "Say one in four languages", cwd: tmp.path }, { registry, env: fake.env }));
}

const joined = (events: OdEvent[]) =>
  ofType(events, "text.delta")
    .map((e) => e.text)
    .join("");

describe("codex: separate agent_message items", () => {
  test("are separate paragraphs in the stream and in the answer", async () => {
    const events = await run("codex", [{ replay: join(FIXTURES, "codex/separate-messages.jsonl") }]);
    const answer = "English: one\n\nChinese: 一\n\nJapanese: いち\n\nFrench: un";
    expect(joined(events)).toBe(answer);
    expect(ofType(events, "run.result")[0]?.text).toBe(answer);
    expect(finished(events).status).toBe("succeeded");
  });
});

const SESSION = "ses_dcc180827ffeyphoMzi8KYelAz";
const record = (type: string, body: Record<string, unknown>) => ({
  stdout: { type, timestamp: 1796167187131, sessionID: SESSION, ...body },
});
const text = record("text", { part: { id: "prt_1", type: "text", text: "Let me look at the project." } });

describe("opencode: a provider error", () => {
  test("reported as an UnknownError with exit 0 fails the run, in the provider's words", async () => {
    const error = record("error", { error: { name: "UnknownError", data: { message: "AI_APICallError: Overloaded" } } });
    const events = await run("opencode", [text, error, { exit: 0 }]);
    expect(ofType(events, "error")[0]?.message).toContain("Overloaded");
    expect(finished(events).status).toBe("failed");
  });

  test("without an error object (only a message) still fails the run with that message", async () => {
    const events = await run("opencode", [text, record("error", { message: "stream closed by provider" }), { exit: 0 }]);
    expect(ofType(events, "error")[0]?.message).toContain("stream closed by provider");
    expect(finished(events).status).toBe("failed");
  });

  test("whose cause is only in opencode's log: the log names the run's error", async () => {
    const log =
      'timestamp=2026-12-01T23:19:47.112Z level=ERROR run=3820d935 message=failed ref=err_c75c61d2 error="ProviderModelNotFoundError: Model not found: nope/nope." cause="ProviderModelNotFoundError"\n';
    const error = record("error", {
      error: { name: "UnknownError", data: { message: "Unexpected server error. Check server logs for details." } },
    });
    const events = await run("opencode", [error, { stderr: log }, { exit: 1 }]);
    expect(ofType(events, "run.result")[0]).toMatchObject({ errorCode: "MODEL_NOT_AVAILABLE" });
    expect(finished(events).status).toBe("failed");
  });
});
