import { isFinal, OdError } from "../errors.ts";
import type { OdEventBody } from "../events.ts";
import type { Transport } from "../loops/transport.ts";
import type { Frame } from "../os/lines.ts";
import type { Exit } from "../os/process.ts";
import { finishing, interpret } from "../protocols/interpret.ts";
import { type Broker, decisionEvent, requestEvent, settle } from "./permissions.ts";
import type { Plan } from "./plan.ts";
import type { Supervisor } from "./supervise.ts";

export interface Drive {
  plan: Plan;
  transport: Transport;
  supervisor: Supervisor;
  /** The session driver's state, from its `start`. */
  state: unknown;
  broker?: Broker;
  brokerTimeoutMs?: number;
  /** The agent printed broken structured output: its text is salvaged, resume and relayed approvals are off. */
  degraded: boolean;
}

/**
 * The agent's output, frame by frame, as event bodies: lines through the
 * session driver (with interpret's guarantees), permission questions settled
 * and answered, the driver's replies sent back, and the end of the turn told to
 * the supervisor. Returns how the agent exited.
 */
export async function* drive(d: Drive): AsyncGenerator<OdEventBody, Exit> {
  const { plan, transport, supervisor } = d;
  try {
    for await (const frame of transport.lines()) {
      supervisor.activity();
      for (const body of bodiesOf(frame)) {
        const out = afterStop(body, supervisor.stopped);
        yield out;
        // A rejected login never heals: stop now rather than sit through the CLI's own retries.
        if (out.type === "error" && isFinal(out.code)) supervisor.stop("final");
      }
      if (frame.kind !== "line") continue;
      yield* step(d, frame.text);
    }
    for (const body of finishing(plan.driver, d.state, !plan.trusted)) yield body;
    return await transport.exited;
  } finally {
    supervisor.quiet();
  }
}

/** The bodies a frame carries by itself: a loop's own event, or the error for a line over the limit. */
function bodiesOf(frame: Frame): OdEventBody[] {
  if (frame.kind === "event") return [frame.body];
  if (frame.kind === "too-large")
    return [
      errorBody(
        new OdError(
          "OUTPUT_LINE_TOO_LARGE",
          `Dropped one output line of ${frame.bytes} bytes (over the line limit)`,
          "The agent printed an oversized record; the rest of the run continues.",
        ),
      ),
    ];
  return [];
}

/** One line through the driver: its events, its replies, its permission questions, and whether the turn is over. */
async function* step(d: Drive, line: string): AsyncGenerator<OdEventBody> {
  const { plan, transport, supervisor } = d;
  const result = interpret(plan.driver, d.state, line, !plan.trusted);
  if (result.malformed && !d.degraded) {
    d.degraded = true;
    yield {
      type: "status",
      label: "degraded",
      detail: `${plan.adapter.name} printed malformed output; its text is kept as plain text, and resume and relayed approvals are off for this run`,
    };
  }
  for (const body of result.events) {
    const out = afterStop(body, supervisor.stopped);
    yield out;
    if (out.type === "error" && isFinal(out.code)) supervisor.stop("final");
  }
  for (const m of result.send ?? []) transport.send(m);
  for (const ask of result.asks ?? []) {
    yield requestEvent(ask);
    const settled = supervisor.stopped
      ? { decision: "deny" as const, by: "policy" as const, reason: "the run is stopping" }
      : await settle(ask, plan.request.mode, plan.request.cwd, d.degraded ? undefined : d.broker, d.brokerTimeoutMs, supervisor.signal);
    yield decisionEvent(ask, settled);
    for (const m of ask.reply(settled.decision)) transport.send(m);
  }
  if (result.done) supervisor.turnDone();
}

/** Once od has stopped a run its outcome is decided: the agent's dying words are kept as status, not as new errors. */
function afterStop(body: OdEventBody, stopped: string | undefined): OdEventBody {
  if (!stopped || body.type !== "error") return body;
  return { type: "status", label: "agent error after stop", detail: `${body.code}: ${body.message}` };
}

export function errorBody(err: OdError): OdEventBody {
  return { type: "error", ...err.toJSON() };
}
