/** What the ACP driver (acp.ts) keeps per run, shared with its handshake (acp-session.ts) and permission (acp-permissions.ts) steps. */
import type { UpdateState } from "./acp-updates.ts";
import type { DriverContext } from "./driver.ts";
import type { Calls } from "./jsonrpc.ts";

export interface AcpState extends UpdateState {
  ctx: DriverContext;
  /** Our pending requests, by id, each with the handshake step its answer completes. */
  calls: Calls<Purpose>;
  sessionId?: string;
  canLoad: boolean;
  /** The session option that puts this agent in the run's mode (the adapter's `modes` option), set before the prompt. */
  modeOption?: SessionOption;
}

/** A session config option, e.g. { configId: "mode", value: "plan" }: how an ACP agent is put in one of od's modes. */
export interface SessionOption {
  configId: string;
  value: string;
}

/** What one of our requests was for, which decides what its answer means. */
export type Purpose = "initialize" | "session" | "model" | "mode" | "prompt";
