import type { Adapter, Classification } from "../contract/adapter.ts";
import { isRetryable } from "../contract/errors.ts";
import type { BodyOf, OdEventBody } from "../contract/events.ts";
import type { Exit } from "../os/process.ts";
import { redact } from "../protocols/redact.ts";

const RETAINED = 500;

/**
 * Watches a run's events and decides how it ended: which tool calls are still
 * open, whether the agent said anything, the session id, and the final status.
 * Pure bookkeeping; the pipeline feeds it and emits what it returns.
 */
export class Outcome {
  sessionId?: string;
  /** False when the agent said its session cannot be loaded again. */
  sessionLoadable = true;
  private sawOutput = false;
  private readonly errors: Array<BodyOf<"error">> = [];
  private readonly openTools = new Set<string>();
  /** Non-delta events, bounded, for the adapter's classifier. */
  readonly retained: OdEventBody[] = [];

  observe(event: OdEventBody): void {
    switch (event.type) {
      case "text.delta":
      case "thinking.delta":
        if (event.text) this.sawOutput = true;
        return;
      case "tool.call":
        this.sawOutput = true;
        this.openTools.add(event.id);
        break;
      case "permission.request":
        this.sawOutput = true; // the agent acted: it asked (and may have been refused)
        break;
      case "tool.result":
        this.openTools.delete(event.id);
        break;
      case "session":
        this.sessionId = event.sessionId;
        this.sessionLoadable = event.resumable !== false;
        break;
      case "error":
        this.errors.push(event);
        break;
    }
    if (this.retained.length >= RETAINED) this.retained.shift();
    this.retained.push(event);
  }

  get failed(): boolean {
    return this.errors.length > 0;
  }

  /** Results for tool calls the agent never closed, so every `tool.call` is paired. */
  closeOpenTools(): OdEventBody[] {
    const out: OdEventBody[] = [...this.openTools].map((id) => ({
      type: "tool.result" as const,
      id,
      output: "(no result: the run ended before this tool finished)",
      isError: true,
    }));
    this.openTools.clear();
    return out;
  }

  /**
   * The closing error for a run that ended without one of its own, or nothing
   * for a success: a non-zero or signal exit goes through the adapter's
   * classifier; a clean exit with no output is EMPTY_OUTPUT.
   */
  async closingError(adapter: Adapter, exit: Exit, stderrTail: () => Promise<string>): Promise<OdEventBody | undefined> {
    if (this.failed) return undefined;
    const clean = exit.exitCode === 0 && exit.signal === null;
    if (clean && this.sawOutput) return undefined;
    const tail = redact(await stderrTail()); // the agent's own words, for the classifier and the message: no credentials
    let found: Classification | undefined;
    if (!clean) {
      try {
        found = adapter.classify?.({ ...exit, stderrTail: tail, events: this.retained });
      } catch {
        found = undefined;
      }
      found ??= crashed(adapter, exit, tail);
    } else {
      found = {
        code: "EMPTY_OUTPUT",
        message: `${adapter.name} exited cleanly but produced no answer, tool call or thinking`,
        hint: lastLine(tail) ?? `Run \`${adapter.bin}\` by hand in the same directory to see what it does.`,
      };
    }
    return { type: "error", ...found, retryable: isRetryable(found.code) };
  }
}

function crashed(adapter: Adapter, exit: Exit, tail: string): Classification {
  const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.exitCode}`;
  const last = lastLine(tail);
  return {
    code: "AGENT_CRASHED",
    message: `${adapter.name} ${how}${last ? `: ${last}` : ""}`,
    hint: last
      ? `The agent's last words are above; run with --json to see every event.`
      : `Run \`${adapter.bin}\` by hand to see why it fails.`,
  };
}

/** The last non-empty line of a stderr tail, trimmed for a one-line message. */
export function lastLine(text: string): string | undefined {
  const line = text.trim().split("\n").pop()?.trim();
  return line ? line.slice(0, 300) : undefined;
}
