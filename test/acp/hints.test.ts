/** od acp's errors speak ACP: hints written for the terminal (--resume, --model, od models) rewritten in the protocol's terms. */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { rpcError } from "../../src/acp/errors.ts";
import { protocolHint } from "../../src/acp/hints.ts";
import { OdError } from "../../src/core/contract/errors.ts";
import { ROOT } from "../helpers.ts";

describe("protocolHint", () => {
  const cases: Array<[string, string]> = [
    ["Start a new run without --resume.", "Start a new session (session/new): this one cannot be continued."],
    [
      "Continue with --resume 1234-abcd, or raise OD_API_MAX_TURNS.",
      "Send another prompt in this session to continue, or raise OD_API_MAX_TURNS.",
    ],
    ["Run without --image.", "Send the prompt without image content."],
    ["`od models --agent <id>` lists the valid ones.", 'the session\'s "model" option lists the valid ones (session/set_config_option).'],
    [
      "Pick a model Qwen offers: `od models --agent <id>` lists them.",
      'Pick a model Qwen offers: the session\'s "model" option lists them (session/set_config_option).',
    ],
    [
      'Valid models: a, b …and 3 more; see `od models --agent qwen-acp`. "default" lets the agent choose; `od models --agent qwen-acp --refresh` reads the list again (od keeps it up to 24 h).',
      'Valid models: a, b …and 3 more; the session\'s "model" option lists them all. "default" lets the agent choose; od reads the agent\'s list again after 24 h.',
    ],
    ["Pass --model, or set OD_API_MODEL.", 'Set the session\'s "model" option (session/set_config_option), or set OD_API_MODEL.'],
    [
      "Pass --model (or set OD_API_MODEL) to a model this endpoint serves.",
      'Set the session\'s "model" option (or OD_API_MODEL) to a model this endpoint serves.',
    ],
    ["Update the agent, or choose another --mode.", "Update the agent, or choose another mode (session/set_mode)."],
    [
      "Use --mode full if that is what you want, pick another agent, or run where Landlock is available (Linux 5.13+).",
      'Use the "full" mode (session/set_mode, as far as od acp allows) if that is what you want, pick another agent, or run where Landlock is available (Linux 5.13+).',
    ],
    ["Use --mode edit, or drop --allowed-tools.", 'Use the "edit" mode (session/set_mode).'],
    ["Pass an existing directory with --cwd.", "Start the session (session/new) in an existing directory."],
    ["Check that the agent is installed and that --cwd exists.", "Check that the agent is installed and that the session's cwd exists."],
    ["Raise --timeout, or simplify the task.", "Simplify the task, or split it into smaller prompts."],
    [
      "Run `od doctor` to see what is installed and what to do, or pass --agent.",
      "Run `od doctor` to see what is installed and what to do, or start od acp with --agent <id>.",
    ],
    ["Log in: claude /login", "Log in: claude /login"],
  ];
  for (const [cli, acp] of cases) test(cli, () => expect(protocolHint(cli)).toBe(acp));
  test("no hint stays none", () => expect(protocolHint(undefined)).toBeUndefined());

  test("an error sent over ACP carries the rewritten hint, in its message too", () => {
    const e = rpcError(
      new OdError("INVALID_REQUEST", "The kernel cannot hold --mode edit here: no Landlock", "Start a new run without --resume."),
    );
    expect(e.message).toBe('The kernel cannot hold the "edit" mode here: no Landlock');
    expect(e.data).toMatchObject({ code: "INVALID_REQUEST", hint: "Start a new session (session/new): this one cannot be continued." });
  });
});

/** Sentences in od's core that name a CLI flag, and the files whose errors never reach an ACP session. */
const NOT_OVER_ACP = ["agents/roles.ts", "workspace/apply.ts", "remote/"];

test("every sentence of od's core that names a CLI flag comes out of protocolHint without one (but od acp's own)", () => {
  const LITERAL = /"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g;
  const left: string[] = [];
  for (const file of readdirSync(join(ROOT, "src/core"), { recursive: true, encoding: "utf8" })) {
    if (!file.endsWith(".ts") || NOT_OVER_ACP.some((f) => file.startsWith(f))) continue;
    const code = readFileSync(join(ROOT, "src/core", file), "utf8")
      .split("\n")
      .filter((l) => !/^\s*(\/\/|\*|\/\*\*)/.test(l))
      .join("\n");
    for (const m of code.matchAll(LITERAL)) {
      const sentence = (m[1] ?? m[2] ?? "").replace(/\$\{[^}]*\}/g, "x").replace(/\\`/g, "`");
      if (!/\s--[a-z]/.test(` ${sentence}`) || !/[A-Z][a-z]+ /.test(sentence)) continue;
      const said = protocolHint(sentence).replace(/od acp (without |with )?--[a-z]+/g, "");
      if (/\s--[a-z]|`od (run|models|agents)/.test(said)) left.push(`${file}: ${sentence}`);
    }
  }
  expect(left).toEqual([]);
});
