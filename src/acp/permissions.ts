import type { AgentContext, PermissionOption, RequestPermissionResponse, ToolCallUpdate, ToolKind } from "@agentclientprotocol/sdk";
import type { Mode } from "../core/contract/events.ts";
import type { ActionKind, PermissionAsk } from "../core/contract/permissions.ts";
import { type Broker, policyDecision } from "../core/run/permissions.ts";
import { rawInputOf } from "./raw-input.ts";
import { absolutePath } from "./tool-call.ts";

const KIND: Record<ActionKind, ToolKind> = { read: "read", edit: "edit", execute: "execute", other: "other" };

/** What the client may answer: once, either way (od keeps no standing approvals). */
export const PERMISSION_OPTIONS: PermissionOption[] = [
  { optionId: "allow", name: "Allow", kind: "allow_once" },
  { optionId: "reject", name: "Reject", kind: "reject_once" },
];

export interface ClientBrokerOptions {
  client: Pick<AgentContext, "request">;
  sessionId: string;
  /** The session's mode: the most the client can allow. */
  mode: Mode;
  cwd: string;
  log?: (message: string) => void;
  /** Resolves once the updates before question `askId` have gone to the client (so the call it is about is shown first). */
  shown?: (askId: string, signal: AbortSignal) => Promise<void>;
}

/**
 * The inner agent's permission requests, relayed to the ACP client as `session/request_permission`.
 * The mode is a ceiling the client cannot raise: what the mode's policy denies (a write in read-only,
 * a command or an edit outside the working directory in edit) is denied without asking, so a
 * client's "allow" can only ever allow what the mode allows anyway. Within it the client decides;
 * no answer, a cancelled request, an unknown option or a failed request deny (the pipeline turns
 * `undefined` into a denial, and its own timeout denies a client that never answers).
 */
export function clientBroker(opts: ClientBrokerOptions): Broker {
  return async (ask, signal) => {
    const ceiling = policyDecision(ask, opts.mode, opts.cwd);
    if (ceiling.decision === "deny") {
      opts.log?.(`permission ${ask.tool}: denied without asking the client (${ceiling.reason})`);
      return "deny";
    }
    try {
      await opts.shown?.(ask.id, signal);
      if (signal.aborted) return undefined; // the run stopped meanwhile: nothing to ask
      const answer: RequestPermissionResponse = await opts.client.request(
        "session/request_permission",
        {
          sessionId: opts.sessionId,
          toolCall: permissionToolCall(ask, opts.cwd),
          options: PERMISSION_OPTIONS,
        },
        { cancellationSignal: signal },
      );
      if (signal.aborted || answer.outcome.outcome !== "selected") return undefined;
      return answer.outcome.optionId === "allow" ? "allow" : answer.outcome.optionId === "reject" ? "deny" : undefined;
    } catch (err) {
      opts.log?.(`permission ${ask.tool}: the client did not answer (${(err as Error)?.message ?? err}); denied`);
      return undefined;
    }
  };
}

/**
 * The call a permission request is about, as ACP's ToolCallUpdate: the id of the call the client was
 * shown (the agent's own, through od's relay), its paths absolute (against the session's folder), its
 * input as an object (bounded: never a string, which older clients refuse); a question with no input
 * (an extension's dialog) says what it asks as text.
 */
export function permissionToolCall(ask: Omit<PermissionAsk, "reply">, cwd: string): ToolCallUpdate {
  const rawInput = rawInputOf(ask.input);
  const paths = [...new Set((ask.paths ?? []).map((p) => absolutePath(p, cwd)))];
  return {
    toolCallId: ask.toolCallId ?? `permission-${ask.id}`,
    title: ask.tool,
    kind: KIND[ask.kind],
    status: "pending",
    ...(paths.length ? { locations: paths.map((path) => ({ path })) } : {}),
    ...(rawInput ? { rawInput } : {}),
    ...(!rawInput && ask.detail ? { content: [{ type: "content", content: { type: "text", text: ask.detail } }] } : {}),
  };
}
