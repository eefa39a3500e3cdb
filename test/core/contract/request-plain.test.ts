import { describe, expect, test } from "bun:test";
import { built } from "../../../src/core/contract/lazy.ts";
import { RunRequest } from "../../../src/core/contract/request.ts";
import { plainRequest, REQUEST_KEYS } from "../../../src/core/contract/request-plain.ts";

const base = { agent: "claude", prompt: "fix the bug" };
const stdio = { name: "files", command: "npx", args: ["-y", "files-mcp"], env: [] };

/** Requests every surface makes: the plain check must answer them itself, as the schema does. */
const plain: Array<[string, Record<string, unknown>]> = [
  ["agent and prompt only", base],
  ["od run's usual flags", { ...base, cwd: "/tmp/x", mode: "read-only", model: "opus", effort: "high", timeoutMs: 60_000 }],
  ["lists given", { ...base, skills: ["review"], allowedTools: ["Read", "Bash(git:*)"], images: ["a.png"], maxTurns: 3 }],
  ["resume, role and a target", { ...base, resume: "abc-123", role: "reviewer", on: "ssh://host" }],
  ["empty MCP list", { ...base, mcpServers: [] }],
  ["an unknown key is dropped", { ...base, extra: 1 }],
  ["a key given as undefined", { ...base, model: undefined, mode: undefined }],
  ["the full mode", { ...base, mode: "full" }],
];

/** What the plain check leaves to the schema: mistakes (which the schema explains) and MCP servers. */
const unusual: Array<[string, unknown]> = [
  ["not an object", "claude"],
  ["null", null],
  ["an array", [base]],
  ["no agent", { prompt: "x" }],
  ["an empty agent", { ...base, agent: "" }],
  ["a blank prompt", { ...base, prompt: "  \n" }],
  ["a prompt not a string", { ...base, prompt: 3 }],
  ["an unknown mode", { ...base, mode: "yolo" }],
  ["a model that is a flag", { ...base, model: "--yolo" }],
  ["an empty model", { ...base, model: "" }],
  ["a resume that is a flag", { ...base, resume: "-r" }],
  ["an allowed tool that is a flag", { ...base, allowedTools: ["--dangerously-skip-permissions"] }],
  ["a fractional timeout", { ...base, timeoutMs: 1.5 }],
  ["a zero timeout", { ...base, timeoutMs: 0 }],
  ["a timeout as text", { ...base, timeoutMs: "100" }],
  ["a negative turn cap", { ...base, maxTurns: -1 }],
  ["an empty skill", { ...base, skills: [""] }],
  ["skills not a list", { ...base, skills: "review" }],
  ["an empty image path", { ...base, images: [""] }],
  ["an empty cwd", { ...base, cwd: "" }],
  ["a null cwd", { ...base, cwd: null }],
  ["an empty target", { ...base, on: "" }],
  ["MCP servers", { ...base, mcpServers: [stdio] }],
  ["a MCP server named like a flag", { ...base, mcpServers: [{ ...stdio, name: "-x" }] }],
];

describe("plainRequest", () => {
  test("knows every field of the schema, in its order", () => {
    expect<string[]>([...REQUEST_KEYS]).toEqual(Object.keys(built(RunRequest).shape));
  });

  test.each(plain)("%s: answered without the schema, as the schema answers", (_, input) => {
    const parsed = RunRequest.safeParse(input);
    expect(parsed.success).toBe(true);
    const mine = plainRequest(input);
    expect(mine).toStrictEqual(JSON.parse(JSON.stringify(parsed.data)));
    expect(Object.keys(mine!)).toEqual(Object.keys(parsed.data!).filter((k) => (parsed.data as Record<string, unknown>)[k] !== undefined));
  });

  test.each(unusual)("%s: left to the schema", (_, input) => {
    expect(plainRequest(input)).toBeUndefined();
  });

  test("never accepts what the schema refuses", () => {
    for (const [, input] of unusual) if (!RunRequest.safeParse(input).success) expect(plainRequest(input)).toBeUndefined();
  });

  test("its lists are copies: planning may change them without touching the caller's", () => {
    const input = { ...base, skills: ["a"] };
    plainRequest(input)!.skills.push("b");
    expect(input.skills).toEqual(["a"]);
  });
});
