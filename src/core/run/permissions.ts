import type { Mode, OdEventBody } from "../contract/events.ts";
import type { Decision, PermissionAsk } from "../contract/permissions.ts";
import { inGitMetadata, inside } from "../os/cwd-paths.ts";

/** Someone to ask (a TTY, a browser); undefined means "no answer", which the pipeline turns into a denial. */
export type Broker = (ask: Omit<PermissionAsk, "reply">, signal: AbortSignal) => Promise<Decision | undefined>;

/**
 * The run's policy, and the answer whenever nobody is attached to ask: read-only
 * allows reads only, and never an MCP tool's call (whatever kind the agent says it is); edit
 * allows reads and edits of paths inside the working directory; full allows everything.
 * Anything unclear is denied (fail closed).
 */
export function policyDecision(
  ask: Pick<PermissionAsk, "kind" | "paths" | "mcp">,
  mode: Mode,
  cwd: string,
): { decision: Decision; reason: string } {
  if (mode === "full") return { decision: "allow", reason: "full mode allows everything" };
  if (mode === "read-only" && ask.mcp)
    return { decision: "deny", reason: "read-only mode allows no MCP tool (what one does is its server's to say, not od's)" };
  if (ask.kind === "read") return { decision: "allow", reason: `${mode} mode allows reads` };
  if (mode === "read-only") return { decision: "deny", reason: "read-only mode denies anything that writes or executes" };
  if (ask.kind !== "edit")
    return { decision: "deny", reason: `edit mode denies ${ask.kind === "execute" ? "running commands" : "actions it cannot classify"}` };
  if (!ask.paths?.length) return { decision: "deny", reason: "edit mode denies an edit that names no path" };
  const outside = ask.paths.find((p) => !inside(cwd, p));
  if (outside) return { decision: "deny", reason: `edit mode denies writing outside the working directory (${outside})` };
  const meta = ask.paths.find((p) => inGitMetadata(cwd, p));
  if (meta) return { decision: "deny", reason: `edit mode denies writing the repository's own metadata (${meta})` };
  return { decision: "allow", reason: "edit mode allows edits inside the working directory" };
}

export interface Settled {
  decision: Decision;
  by: "policy" | "user" | "timeout";
  reason: string;
}

/**
 * Decides one ask. The run's mode is a ceiling: what its policy denies is denied at once, and no
 * one attached can allow it (a browser or an editor answering "allow" cannot make a read-only run
 * write). What the policy allows goes to an attached broker, who may deny it (a timeout or no
 * answer denies); with nobody attached, the policy's allow stands. A run that stops meanwhile
 * (`stopping` aborts) denies at once instead of waiting for an answer.
 */
export async function settle(
  ask: PermissionAsk,
  mode: Mode,
  cwd: string,
  broker?: Broker,
  timeoutMs = 120_000,
  stopping?: AbortSignal,
): Promise<Settled> {
  const policy = policyDecision(ask, mode, cwd);
  if (!broker || policy.decision === "deny") return { ...policy, by: "policy" };
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onStop: (() => void) | undefined;
  const timeout = new Promise<"timeout" | "stopping">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
    onStop = () => resolve("stopping");
    if (stopping?.aborted) onStop();
    else stopping?.addEventListener("abort", onStop, { once: true });
  });
  const { reply: _reply, denied: _denied, ...question } = ask;
  try {
    const answer = await Promise.race([broker(question, controller.signal).catch(() => undefined), timeout]);
    if (answer === "stopping") return { decision: "deny", by: "policy", reason: "the run is stopping" };
    if (answer === "timeout")
      return { decision: "deny", by: "timeout", reason: `nobody answered within ${Math.round(timeoutMs / 1000)} s` };
    if (answer === undefined) return { decision: "deny", by: "user", reason: "no answer" };
    return { decision: answer, by: "user", reason: answer === "allow" ? "allowed by the user" : "denied by the user" };
  } finally {
    clearTimeout(timer);
    if (onStop) stopping?.removeEventListener("abort", onStop);
    controller.abort();
  }
}

/** The event that shows an ask, emitted before anyone decides it. */
export function requestEvent(ask: PermissionAsk): OdEventBody {
  return { type: "permission.request", id: ask.id, tool: ask.tool, detail: ask.detail, options: ask.options };
}

/** The event that shows how an ask was decided. */
export function decisionEvent(ask: PermissionAsk, settled: Settled): OdEventBody {
  return { type: "permission.decision", id: ask.id, decision: settled.decision, by: settled.by, reason: settled.reason };
}

/** Everything that shows a settled ask: the decision, and for a denied tool call the call and its denied result. */
export function settledEvents(ask: PermissionAsk, settled: Settled): OdEventBody[] {
  const decision = decisionEvent(ask, settled);
  return settled.decision === "deny" && ask.denied ? [decision, ...ask.denied(settled.reason)] : [decision];
}
