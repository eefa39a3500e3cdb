import type { MessagePort } from "node:worker_threads";
import type { Adapter } from "../contract/adapter.ts";
import type { OdEventBody } from "../contract/events.ts";
import type { Driver, DriverStep } from "../protocols/driver.ts";
import { pluginError } from "./plugin-error.ts";
import type { Answer } from "./plugin-messages.ts";
import { startPluginThread } from "./plugin-thread.ts";

/** How long a plugin's parse() (or finish()) may take on one line before its run is stopped. */
export const PARSE_WATCHDOG_MS = 2000;
/** How long a plugin's thread may take to start, load the plugin and make its state, counted from the run's start. */
export const OPEN_BUDGET_MS = 3000;

/** What the plugin's thread has answered and no request has taken yet. Holds nothing of the session, so a dropped run's session can be collected. */
interface Inbox {
  answers: Map<number, Answer>;
  /** Why the thread answers no more (it could not load the plugin, exited, or ended): every wait ends with it. */
  gone?: Answer;
  /** Wakes the request waiting for an answer. */
  wake?: () => void;
}

/** A run's session with its plugin's thread. */
interface Session {
  worker: Worker;
  port: MessagePort;
  inbox: Inbox;
  seq: number;
  /** Until when (performance.now()) the plugin may take to load: counted from the start. */
  openBy: number;
  opened: boolean;
  /** The last request in line: each waits for the one before, so lines are answered in order. */
  tail: Promise<unknown>;
  /** Set once the session is over (the watchdog fired, the plugin exited, or it could not be loaded). */
  over?: string;
}

type Request = { kind: "line"; line: string } | { kind: "finish" };

/** Ends the thread of a session whose run was dropped without closing it. */
const reaper = new FinalizationRegistry<{ worker: Worker; port: MessagePort }>(({ worker, port }) => {
  worker.terminate();
  port.close();
});

/**
 * A plugin's line protocol, run in a thread of its own (agents/plugin-worker.ts) under a
 * watchdog. JavaScript cannot interrupt a loop on its own thread, so a plugin's parse that never
 * returns would freeze od (and every run of `od serve`); here each line's answer is a promise that
 * od's thread never blocks on: it comes through the session's port, or the watchdog's timer ends
 * it after `watchdogMs` (the first line also waits for the plugin to load, within the open budget
 * counted from the start). A parse that misses it, or a plugin that exits, ends the run with
 * PLUGIN_ERROR. A throw and an answer that is no list keep their usual meaning (interpret.ts keeps
 * the line raw). Built-ins never come here: they run in od's thread and answer at once (their
 * speed is benchmarked).
 */
export function watchedDriver(adapter: Adapter, path: string, clocks: { watchdogMs?: number; openMs?: number } = {}): Driver<Session> {
  const { watchdogMs = PARSE_WATCHDOG_MS, openMs = OPEN_BUDGET_MS } = clocks;
  const text = adapter.protocol.kind === "lines" && adapter.protocol.format === "text";
  const fail = (s: Session, why: string): OdEventBody[] => {
    end(s, why);
    return [{ type: "error", ...pluginError(adapter, why, path).toJSON() }];
  };
  /** The plugin's events for one request; a throw of the plugin's is thrown; a timeout or a gone thread ends the session. */
  const events = async (s: Session, request: Request, what: string): Promise<OdEventBody[]> => {
    if (s.over) throw new Error(s.over); // an earlier request ended the session: the line is kept as raw
    const answer = await ask(s, request, watchdogMs);
    if ("events" in answer) return answer.events as OdEventBody[];
    if ("threw" in answer) throw new Error(answer.threw);
    return fail(s, answer.failed === "timeout" ? late(s, what, clocks) : answer.failed);
  };
  return {
    name: "lines",
    keepStdinOpen: false,
    textLines: text,
    start: () => ({ state: open(adapter.id, path, openMs), send: [] }),
    receive: (_record, s, line): Promise<DriverStep> => {
      if (s.over) throw new Error(s.over); // kept as raw at once
      return inTurn(s, async () => ({ events: await events(s, { kind: "line", line }, "parse()") }));
    },
    abort: () => [],
    finish: (s) => {
      if (s.over) return [];
      return inTurn(s, async () => {
        if (s.over) return [];
        try {
          return await events(s, { kind: "finish" }, "finish()");
        } finally {
          end(s, "finished");
        }
      });
    },
    close: (s) => end(s, s.over ?? "closed"),
  };
}

/** Runs `f` after every request before it has been answered; a failed one does not stop the line. */
function inTurn<T>(s: Session, f: () => Promise<T>): Promise<T> {
  const turn = s.tail.then(f);
  s.tail = turn.catch(() => {});
  return turn;
}

function end(s: Session, why: string): void {
  if (s.over) return;
  s.over = why;
  s.worker.terminate();
  s.port.close();
  reaper.unregister(s);
}

function late(s: Session, what: string, { watchdogMs = PARSE_WATCHDOG_MS, openMs = OPEN_BUDGET_MS }): string {
  return s.opened
    ? `${what} did not return within ${watchdogMs} ms (a loop that never ends?); the run was stopped`
    : `it did not load and make its state in a thread of its own within ${openMs} ms; the run was stopped`;
}

/** Starts the plugin's thread and asks it to load the plugin; the first request waits for that. */
function open(id: string, path: string, openMs: number): Session {
  const worker = startPluginThread();
  (worker as Bun.Worker).unref(); // Bun's own: the browser's lib (the web UI's checked modules bring it in) has no unref

  // Required here, not imported: node:worker_threads costs every start of od run ~3 ms, and only a plugin file's run needs it.
  const { MessageChannel, receiveMessageOnPort } = require("node:worker_threads") as typeof import("node:worker_threads");
  const { port1: port, port2 } = new MessageChannel();
  const inbox: Inbox = { answers: new Map() };
  const deliver = (answer: Answer) => {
    if ("failed" in answer)
      inbox.gone ??= answer; // the plugin could not be loaded, or exited
    else inbox.answers.set(answer.seq, answer);
    inbox.wake?.();
  };
  port.on("message", deliver);
  port.unref(); // an idle session keeps no one alive; a request waiting for its answer has its timer
  worker.addEventListener("close", () => {
    // Its last words first (they may still be on their way), then why every later wait ends.
    try {
      for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) deliver(m.message as Answer);
    } catch {} // the port is closed: the session is over
    deliver({ seq: 0, failed: "its thread ended without an answer" });
  });
  worker.postMessage({ kind: "open", seq: 1, path, id, port: port2 }, [port2]);
  const s: Session = { worker, port, inbox, seq: 1, openBy: performance.now() + openMs, opened: false, tail: Promise.resolve() };
  reaper.register(s, { worker, port }, s);
  return s;
}

/**
 * One request to the plugin's thread and its answer: first the plugin must have loaded (once,
 * until its open budget from the start ends), then the answer must come within `watchdogMs`;
 * `{ failed: "timeout" }` when none came in time.
 */
async function ask(s: Session, request: Request, watchdogMs: number): Promise<Answer> {
  const seq = ++s.seq;
  s.worker.postMessage({ ...request, seq });
  if (!s.opened) {
    const opened = await answerTo(s.inbox, 1, s.openBy - performance.now());
    if ("failed" in opened) return opened;
    s.opened = true;
  }
  return answerTo(s.inbox, seq, watchdogMs);
}

/** The answer to `seq` once it comes, or why none will; `{ failed: "timeout" }` after `ms`. */
function answerTo(inbox: Inbox, seq: number, ms: number): Promise<Answer> {
  return new Promise((resolve) => {
    const take = () => {
      const answer = inbox.answers.get(seq) ?? inbox.gone;
      if (!answer) return;
      inbox.answers.delete(seq);
      inbox.wake = undefined;
      clearTimeout(timer);
      resolve(answer);
    };
    const timer = setTimeout(
      () => {
        inbox.wake = undefined;
        resolve({ seq, failed: "timeout" });
      },
      Math.max(0, ms),
    );
    inbox.wake = take;
    take();
  });
}
