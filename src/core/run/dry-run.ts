import { join } from "node:path";
import type { BodyOf } from "../contract/events.ts";
import { driverContext, type Plan } from "./plan.ts";
import { sandboxView } from "./sandbox.ts";

/** What `--dry-run` prints: what a run of this plan would spawn, without spawning. */
export interface PlanView {
  agent: string;
  bin: string;
  /** False when the executable is not installed: `bin` is then the bare name. */
  resolved: boolean;
  argv: string[];
  cwd: string;
  mode: string;
  /** Names only: values may be secrets. */
  envKeys: string[];
  /** Exactly what goes to stdin: the prompt, or the protocol's opening messages as JSON lines. */
  stdin?: string;
  /** For CLIs that read the prompt from a file: where it would be written, and what. */
  promptFile?: { path: string; content: string };
  /** Files a run would write for its CLI (its MCP config): their paths only, since they may carry credentials. */
  files?: string[];
  /** The MCP servers the agent would not get, and why (the plan's word and its CLI's). */
  mcp?: string;
  /** What would hold the mode besides the CLI's flags (as run.started says it). */
  sandbox: NonNullable<BodyOf<"run.started">["sandbox"]>;
}

export function viewPlan(plan: Plan): PlanView {
  const { adapter, request, invocation, driver } = plan;
  // The opening messages only: whatever the driver holds for a session (a plugin's thread) is let go at once.
  const { state, send: opening } = driver.start(driverContext(plan));
  driver.close?.(state);
  return {
    agent: adapter.id,
    bin: plan.bin,
    resolved: plan.resolved,
    argv: [plan.bin, ...invocation.argv],
    cwd: request.cwd,
    mode: request.mode,
    envKeys: Object.keys(invocation.env ?? {}),
    stdin: driver.keepStdinOpen ? opening.map((m) => JSON.stringify(m)).join("\n") : invocation.stdin,
    ...(plan.promptFile ? { promptFile: { path: plan.promptFile, content: plan.composed } } : {}),
    ...(invocation.files && plan.mcp.filesDir ? { files: Object.keys(invocation.files).map((f) => join(plan.mcp.filesDir!, f)) } : {}),
    ...mcpView(plan),
    sandbox: sandboxView(plan.sandbox.sandbox),
  };
}

/** What the run would say of the MCP servers it leaves out: the plan's status, then the invocation's own notes. */
function mcpView(plan: Plan): { mcp?: string } {
  const said = [
    ...(plan.mcp.note?.type === "status" ? [plan.mcp.note.detail] : []),
    ...(plan.invocation.notes ?? []).filter((n) => n.label === "mcp").map((n) => n.detail),
  ];
  return said.length ? { mcp: said.join("; ") } : {};
}
