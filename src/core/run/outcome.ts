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
    const clean = exit.exitCode === 0 && exit.signal === null;
    if (this.failed) return clean ? undefined : this.cause(adapter, exit, stderrTail);
    if (clean && this.sawOutput) return undefined;
    const tail = redact(await stderrTail()); // the agent's own words, for the classifier and the message: no credentials
    let found: Classification | undefined;
    if (!clean) {
      found = classified(adapter, exit, tail, this.retained) ?? crashed(adapter, exit, tail);
    } else {
      found = {
        code: "EMPTY_OUTPUT",
        message: `${adapter.name} exited cleanly but produced no answer, tool call or thinking`,
        hint: lastLine(tail) ?? `Run \`${adapter.bin}\` by hand in the same directory to see what it does.`,
      };
    }
    return { type: "error", ...found, retryable: isRetryable(found.code) };
  }

  /**
   * A failed process whose stream only said that it failed (AGENT_ERROR: "Check server logs"): the
   * cause its stderr names, when the adapter's classifier finds one (runError makes it the run's).
   */
  private async cause(adapter: Adapter, exit: Exit, stderrTail: () => Promise<string>): Promise<OdEventBody | undefined> {
    if (!adapter.classify || this.errors.some((e) => e.code !== "AGENT_ERROR")) return undefined;
    const found = classified(adapter, exit, redact(await stderrTail()), this.retained);
    return found && found.code !== "AGENT_ERROR" ? { type: "error", ...found, retryable: isRetryable(found.code) } : undefined;
  }
}

/** The adapter's reading of a failed exit; a classifier that throws reads nothing. */
function classified(adapter: Adapter, exit: Exit, stderrTail: string, events: OdEventBody[]): Classification | undefined {
  try {
    return adapter.classify?.({ ...exit, stderrTail, events });
  } catch {
    return undefined;
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
