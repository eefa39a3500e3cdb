import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { runError } from "../core/contract/errors.ts";
import type { BodyOf, OdEvent } from "../core/contract/events.ts";
import type { RunRequest } from "../core/contract/request.ts";
import { errorText, type McpDeps, toolError } from "./context.ts";
import type { Progress } from "./progress.ts";
import { cwdAtLaunch } from "./roots.ts";

/**
 * One run_agent call: a run of od's run service (origin "mcp", recorded like every surface's, its cwd
 * checked against the roots once more as the agent starts), cancelled when the client cancels the
 * call or (stdio) goes away: `signal`; cancel_run reaches it by id. The runId goes out first, as a
 * progress note. A run refused before it started is the call's error.
 */
export async function runForTool(deps: McpDeps, request: RunRequest, progress: Progress, signal: AbortSignal): Promise<CallToolResult> {
  const seen: Seen = {};
  let runId = "";
  try {
    const run = await deps.runs.start(request, {
      origin: "mcp",
      signal,
      // Checked again as the agent starts: the folder may have changed while the run waited for a slot.
      resolveCwd: (cwd) => cwdAtLaunch(cwd, deps.policy.roots),
    });
    runId = run.runId;
    progress.note(`od: run ${runId} started (${request.agent}, ${request.mode}); cancel_run with this runId stops it`);
    for await (const _ of observe(run.events(), seen, progress)) {
      // observe notes what the answer needs and streams the text as progress
    }
  } catch (err) {
    return toolError(err);
  } finally {
    await progress.flush();
  }
  return outcome(runId, seen);
}

/** What run_agent keeps of a run's events as they pass: enough to answer the call. */
export interface Seen {
  result?: BodyOf<"run.result">;
  finished?: BodyOf<"run.finished">;
  error?: BodyOf<"error">;
  sessionId?: string;
}

/** The run's events, unchanged, noting what the answer needs and telling the client the streamed text. */
export async function* observe(events: AsyncIterable<OdEvent>, seen: Seen, progress: Progress): AsyncGenerator<OdEvent> {
  for await (const e of events) {
    note(e, seen, progress);
    yield e;
  }
}

/** What one event is to run_agent: every type of the contract, as src/mcp/observed.ts says (a new type fails to compile here). */
function note(e: OdEvent, seen: Seen, progress: Progress): void {
  switch (e.type) {
    case "text.delta":
      if (!e.parent) progress.text(e.text);
      return;
    case "tool.call":
      if (!e.parent) progress.note(`→ ${e.name}`);
      return;
    case "error":
      seen.error = runError(seen.error, e);
      return;
    case "session":
      seen.sessionId = e.sessionId;
      return;
    case "run.result":
      seen.result = e;
      return;
    case "run.finished":
      seen.finished = e;
      return;
    case "run.started":
    case "status":
    case "thinking.delta":
    case "plan":
    case "tool.result":
    case "permission.request":
    case "permission.decision":
    case "usage":
    case "raw":
      return; // passed on (observed.ts says why)
    default: {
      const unhandled: never = e;
      return unhandled;
    }
  }
}

/**
 * run_agent's answer: the final text first (what the calling agent reads; none when it wrote none),
 * then a summary (status, session to resume, files changed with their diff, the error with od's code
 * and hint); the same as JSON in structuredContent (which Claude Code hands its model instead of the
 * text). Anything but success is a tool error.
 */
export function outcome(runId: string, seen: Seen): CallToolResult {
  const { result, finished, error } = seen;
  const status = finished?.status ?? "failed";
  const sessionId = finished?.sessionId ?? seen.sessionId;
  const resumable = finished?.resumable ?? false;
  const files = result?.files ?? [];
  const summary = [
    `od run ${runId}: ${status}${finished ? ` in ${(finished.durationMs / 1000).toFixed(1)} s` : ""}`,
    ...(error && status !== "succeeded" ? [errorText(error)] : []),
    ...(sessionId ? [`session: ${sessionId}${resumable ? ` (pass resume: "${sessionId}" to continue it)` : ""}`] : []),
    `files changed: ${files.length ? files.join(", ") : "none"}`,
    ...(result?.note ? [`note: ${result.note}`] : []),
    ...(result?.diff ? [`\`\`\`diff\n${result.diff.replace(/\n$/, "")}\n\`\`\``] : []),
  ].join("\n");
  const text = result?.text ?? "";
  return {
    isError: status !== "succeeded",
    content: [...(text ? [{ type: "text" as const, text }] : []), { type: "text", text: summary }],
    structuredContent: {
      runId,
      status,
      text,
      sessionId,
      resumable,
      files,
      diff: result?.diff,
      toolCalls: result?.toolCalls.map((c) => c.name) ?? [],
      usage: result?.usage,
      durationMs: finished?.durationMs,
      ...(error ? { error: { code: error.code, message: error.message, hint: error.hint } } : {}),
    },
  };
}
