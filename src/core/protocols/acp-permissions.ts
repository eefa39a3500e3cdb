import type { ActionKind, Decision, PermissionAsk } from "../contract/permissions.ts";
import { isMcpTool } from "./acp-mcp.ts";
import type { AcpState } from "./acp-state.ts";
import { deniedTool, mergeTool } from "./acp-tools.ts";
import type { DriverStep } from "./driver.ts";
import { type Id, response } from "./jsonrpc.ts";
import { arr, asRecord, type Rec, str } from "./parse-helpers.ts";

/** ACP's tool kinds as od's permission policy sees them; any other kind is "other". */
const KINDS: Record<string, ActionKind> = {
  read: "read",
  search: "read",
  fetch: "read",
  think: "read",
  edit: "edit",
  delete: "edit",
  move: "edit",
  execute: "execute",
};

/**
 * The agent's session/request_permission as a question for the broker; the
 * reply picks the agent's own allow or reject option (cancelled when it offers none).
 */
export function permissionAsk(id: Id, params: unknown, state: AcpState): DriverStep {
  const p = asRecord(params) ?? {};
  const toolCall = asRecord(p.toolCall) ?? {};
  // Per request (one in four frames of a session): one pass over the options for their names; the
  // reply, made once per request at most, looks at them again.
  const names: string[] = [];
  for (const item of arr(p.options)) {
    const o = asRecord(item);
    if (o) names.push(str(o.name) ?? str(o.optionId) ?? "?");
  }
  // The request describes the call too (often with its full input): merged into the call's state,
  // which the agent's own tool_call updates then show under the name it gives. What the agent said
  // about the call before it asked (kind, locations) fills in what the request leaves out (Droid
  // names no path in it): the same call, so no wider authority; every path named must pass.
  const agentId = str(toolCall.toolCallId);
  const known = agentId ? mergeTool(toolCall, state, agentId) : undefined;
  // The kind as merged: the request's, else the call's own, unless the adapter's rule for the tool says otherwise.
  const kind = known?.kind ?? str(toolCall.kind);
  const paths = known ? known.locations.slice() : arr(toolCall.locations).flatMap((l) => str(asRecord(l)?.path) ?? []);
  // The call's id, as its tool.call shows it (also when od denies it): the agent's own, or one for the request.
  const toolCallId = agentId ?? `permission-${String(id)}`;
  // Its input: the request's, unless that is missing or a placeholder ({}) and the call's own updates had it.
  const given = toolCall.rawInput;
  const json = given === undefined ? undefined : JSON.stringify(given);
  const input = given === undefined || json === "{}" ? (known?.input ?? given) : given;
  const ask: PermissionAsk = {
    id: String(id),
    tool: str(toolCall.title) ?? kind ?? known?.title ?? "tool",
    kind: KINDS[kind ?? ""] ?? "other",
    paths,
    mcp: isMcpTool(toolCall, known, state.ctx.mcpServers),
    detail: json?.slice(0, 500),
    toolCallId,
    input,
    options: names,
    reply: (decision: Decision) => {
      const options = arr(p.options).filter((o): o is Rec => asRecord(o) !== undefined);
      const chosen = decision === "allow" ? pick(options, "allow_once", "allow_always") : pick(options, "reject_once", "reject_always");
      const outcome = chosen ? { outcome: "selected", optionId: str(chosen.optionId) } : { outcome: "cancelled" };
      return [response(id, { outcome })];
    },
    denied: (reason) => deniedTool(toolCall, state, toolCallId, reason),
  };
  return { events: [], asks: [ask] };
}

/** The first option of the first kind, else the first of the second. */
function pick(options: Rec[], first: string, second: string): Rec | undefined {
  return options.find((o) => o.kind === first) ?? options.find((o) => o.kind === second);
}
