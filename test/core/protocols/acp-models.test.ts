// The session's model and mode options, read from real session/new answers (fixture lines).
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { acpModelStep, acpModels, acpModes } from "../../../src/core/protocols/acp-models.ts";
import type { Rec } from "../../../src/core/protocols/parse-helpers.ts";
import { FIXTURES } from "../../helpers.ts";

/** The session/new answer (id 2) of a fixture. */
function sessionOf(adapter: string, fixture: string): Rec {
  const lines = readFileSync(join(FIXTURES, adapter, `${fixture}.jsonl`), "utf8")
    .split("\n")
    .filter(Boolean);
  const answer = lines.map((l) => JSON.parse(l)).find((m) => m.id === 2 && m.result);
  return answer.result as Rec;
}

describe("ACP config options: the one with the id wins over another of its category", () => {
  // Cline 3.0.65 lists `provider` (category "model") before `model` (category "model").
  const cline = sessionOf("cline", "plain");

  test.each([
    ["stub-other", { kind: "set", method: "session/set_config_option", params: { configId: "model", value: "stub-other" } }],
    ["gpt-4o", { kind: "set", method: "session/set_config_option", params: { configId: "model", value: "gpt-4o" } }],
    ["cline-pass", { kind: "invalid", valid: ["gpt-4o", "stub-model", "stub-other"] }],
  ])("Cline: --model %s", (model, expected) => {
    expect(acpModelStep(cline, model)).toEqual(expected as ReturnType<typeof acpModelStep>);
  });

  test("Cline: the models listed are the model option's, the modes plan and act", () => {
    expect(acpModels(cline).map((m) => m.id)).toEqual(["gpt-4o", "stub-model", "stub-other"]);
    expect(acpModes(cline).map((m) => m.id)).toEqual(["plan", "act"]);
  });

  test("with no option of that id, one of that category is the model option", () => {
    const session = { configOptions: [{ id: "m1", category: "model", options: [{ value: "a" }] }] };
    expect(acpModels(session)).toEqual([{ id: "a", name: undefined }]);
  });
});
