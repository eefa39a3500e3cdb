import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Registry } from "../core/agents/registry.ts";
import { OdError } from "../core/contract/errors.ts";
import type { OdEvent } from "../core/contract/events.ts";
import type { Env, RunRequest } from "../core/contract/request.ts";
import type { Slots } from "../core/run/slots.ts";
import type { McpPolicy } from "./roots.ts";

/**
 * Drives a run's events to their end and keeps them in od's history: `od mcp` records them in
 * OD_HOME/runs like `od run`; under `od serve` the server's run store adopts them (its UI shows them).
 * Resolves once every event has passed; `controller` cancels the run.
 */
export type Keeper = (runId: string, request: RunRequest, controller: AbortController, events: AsyncIterable<OdEvent>) => Promise<void>;

/** What the tools share: one per `od mcp` process, or one per `od serve` (every HTTP session sees the same runs). */
export interface McpDeps {
  registry: Registry;
  policy: McpPolicy;
  runs: LiveRuns;
  keep: Keeper;
  env?: Env;
  /** Bounded concurrency: od serve's --max-runs, or od mcp's own 8; further runs wait, and say so. */
  slots?: Slots;
}

/** The runs `run_agent` has started and not yet finished, by id: what `cancel_run` can reach. */
export class LiveRuns {
  private readonly live = new Map<string, AbortController>();
  private readonly waiting = new Set<() => void>();

  add(runId: string, controller: AbortController): void {
    this.live.set(runId, controller);
  }

  delete(runId: string): void {
    this.live.delete(runId);
    if (this.live.size === 0) for (const resolve of this.waiting) resolve();
  }

  /** Resolves when no run is live (at once when none is). */
  idle(): Promise<void> {
    if (this.live.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.waiting.delete(done);
        resolve();
      };
      this.waiting.add(done);
    });
  }

  /** Cancels a live run; false when no run with that id is live here. */
  cancel(runId: string): boolean {
    const controller = this.live.get(runId);
    controller?.abort();
    return controller !== undefined;
  }

  /** Cancels every live run (the server is going away). */
  cancelAll(): void {
    for (const controller of this.live.values()) controller.abort();
  }

  get size(): number {
    return this.live.size;
  }
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
