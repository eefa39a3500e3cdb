import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Registry } from "../core/agents/registry.ts";
import { OdError } from "../core/contract/errors.ts";
import type { Runs } from "../core/runs/service.ts";
import type { McpPolicy } from "./roots.ts";

/** What the tools share: one per `od mcp` process, or one per `od serve` (every HTTP session sees the same runs). */
export interface McpDeps {
  registry: Registry;
  policy: McpPolicy;
  /** od's run service: run_agent starts its runs there (they wait for its slots, and say so); cancel_run finds them there. */
  runs: Runs;
  env?: Record<string, string | undefined>;
}

/** An error as a tool result: od's code and hint in the text, the same fields in structuredContent. */
export function toolError(err: unknown): CallToolResult {
  const e = OdError.from(err);
  return {
    isError: true,
    content: [{ type: "text", text: errorText(e) }],
    structuredContent: { error: e.toJSON() },
  };
}

/** One error as od prints it: `od: <message> [CODE]`, then the hint. */
export function errorText(e: { code: string; message: string; hint?: string }): string {
  return `od: ${e.message} [${e.code}]${e.hint ? `\nhint: ${e.hint}` : ""}`;
}
