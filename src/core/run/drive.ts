import { isFinal, OdError } from "../contract/errors.ts";
import type { OdEventBody } from "../contract/events.ts";
import type { PermissionAsk } from "../contract/permissions.ts";
import type { Transport } from "../loops/transport.ts";
import type { Frame } from "../os/lines.ts";
import type { Exit } from "../os/process.ts";
import { finishing, interpret } from "../protocols/interpret.ts";
import type { Outcome } from "./outcome.ts";
import type { Paragraphs } from "./parts.ts";
import { type Broker, requestEvent, settle, settledEvents } from "./permissions.ts";
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
  /** Watches every body that leaves this stage (how the attempt ends depends on them). */
  outcome: Outcome;
  /** Separate messages made separate paragraphs in the stream (parts.ts). */
  paragraphs: Paragraphs;
}

/**
 * The agent's output as event bodies, one array per chunk read: lines through
 * the session driver (with interpret's guarantees), permission questions
 * settled and answered, the driver's replies sent back, and the end of the turn
 * told to the supervisor. Returns how the agent exited. A driver's promised
 * answer (a plugin's parser, in its own thread) is awaited; built-ins answer at once.
 */
export async function* drive(d: Drive): AsyncGenerator<OdEventBody[], Exit> {
  const { plan, transport, supervisor } = d;
  try {
    for await (const frames of transport.frames()) {
      supervisor.activity();
      // The hot path (lines of a few bodies, nothing to answer) adds to one array per chunk: no generator step per line.
      let out: OdEventBody[] = [];
      for (const frame of frames) {
        if (frame.kind !== "line") {
          out.push(checked(d, bodyOf(frame)));
          continue;
        }
        let result = interpret(plan.driver, d.state, frame.text, !plan.trusted);
        if (result instanceof Promise) {
          // A plugin's parser, answered from its own thread (built-ins answer at once): what came before goes out first.
          if (out.length) yield out;
          out = [];
          result = await result;
        }
        if (result.malformed && !d.degraded) out.push(seen(d, degrade(d)));
        for (const body of result.events) out.push(checked(d, body));
        if (!result.send?.length && !result.asks?.length && !result.done) continue;
        // Replies, questions and the end of the turn follow the bodies before them out, as they did line by line.
        if (out.length) yield out;
        out = [];
        for (const m of result.send ?? []) transport.send(m);
        if (result.asks?.length) yield* answer(d, result.asks);
        if (result.done) supervisor.turnDone();
      }
      if (out.length) yield out;
    }
    let tail = finishing(plan.driver, d.state, !plan.trusted);
    if (tail instanceof Promise) tail = await tail;
    if (tail.length) yield tail.map((body) => seen(d, body));
    return await transport.exited;
  } finally {
    supervisor.quiet();
    plan.driver.close?.(d.state); // ended or dropped: a plugin's thread goes with it
  }
}

/** The body a frame carries by itself: a loop's own event, or the error for a line over the limit. */
function bodyOf(frame: Exclude<Frame, { kind: "line" }>): OdEventBody {
  if (frame.kind === "event") return frame.body;
  return errorBody(
    new OdError(
      "OUTPUT_LINE_TOO_LARGE",
      `Dropped one output line of ${frame.bytes} bytes (over the line limit)`,
      "The agent printed an oversized record; the rest of the run continues.",
    ),
  );
}

/** A body on its way out: after a stop the agent's errors are only status; a rejected login stops the run (it never heals). */
function checked(d: Drive, body: OdEventBody): OdEventBody {
  const out = seen(d, afterStop(body, d.supervisor.stopped));
  if (out.type === "error" && isFinal(out.code)) d.supervisor.stop("final");
  return out;
}

function seen(d: Drive, body: OdEventBody): OdEventBody {
  const out = d.paragraphs.apply(body);
  d.outcome.observe(out);
  return out;
}

function degrade(d: Drive): OdEventBody {
  d.degraded = true;
  return {
    type: "status",
    label: "degraded",
    detail: `${d.plan.adapter.name} printed malformed output; its text is kept as plain text, and resume and relayed approvals are off for this run`,
  };
}

/** The agent's permission questions: each asked, settled (policy, or the broker while the run is not degraded), and answered. */
async function* answer(d: Drive, asks: PermissionAsk[]): AsyncGenerator<OdEventBody[]> {
  const { plan, transport, supervisor } = d;
  for (const ask of asks) {
    yield [seen(d, requestEvent(ask))];
    const settled = supervisor.stopped
      ? { decision: "deny" as const, by: "policy" as const, reason: "the run is stopping" }
      : await settle(ask, plan.request.mode, plan.request.cwd, d.degraded ? undefined : d.broker, d.brokerTimeoutMs, supervisor.signal);
    const bodies = settledEvents(ask, settled).map((body) => seen(d, body));
    if (bodies.length) yield bodies;
    for (const m of ask.reply(settled.decision)) transport.send(m);
  }
}

/** Once od has stopped a run its outcome is decided: the agent's dying words are kept as status, not as new errors. */
function afterStop(body: OdEventBody, stopped: string | undefined): OdEventBody {
  if (!stopped || body.type !== "error") return body;
  return { type: "status", label: "agent error after stop", detail: `${body.code}: ${body.message}` };
}

export function errorBody(err: OdError): OdEventBody {
  return { type: "error", ...err.toJSON() };
}
