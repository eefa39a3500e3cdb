import type { EventType } from "../core/contract/events.ts";

/**
 * What run_agent (src/mcp/run.ts, `observe`) does with each event type as the run's events pass: the
 * calling agent hears some as progress, the answer keeps some, the rest pass through unread. Typed
 * over the whole contract, so a new type fails to compile (and test/surfaces.test.ts fails) until
 * someone says here what MCP does with it; `observe` is the code this describes.
 */
export const OBSERVED: Record<EventType, string> = {
  "run.started": "passed on: the progress note that opens the call already names the agent and mode",
  session: "kept: the answer names the session to resume",
  status: "passed on: od's notes are not the calling agent's business",
  "text.delta": "sent as progress text (the main agent's; a sub-agent's is passed on)",
  "thinking.delta": "passed on: the calling agent gets the answer, not the reasoning",
  plan: "passed on: the answer is the result, not the steps planned",
  "tool.call": "sent as a progress note, `→ name` (the main agent's calls)",
  "tool.result": "passed on: the run's result counts the calls",
  "permission.request": "passed on: run_agent runs under the mode's policy, with nobody to ask",
  "permission.decision": "passed on: a denial shows in the tool call's failed result",
  usage: "passed on: the totals come with run.result",
  raw: "passed on: records od did not understand are kept in the run's log",
  error: "kept: the first error is the answer's error, with its code and hint",
  "run.result": "kept: its text, files, diff, tool calls and totals are the answer",
  "run.finished": "kept: its status, duration and session end the answer",
};
