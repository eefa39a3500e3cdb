import { MessageChannel, type MessagePort, receiveMessageOnPort } from "node:worker_threads";
import type { Adapter } from "../agents/adapter.ts";
import { pluginError } from "../agents/plugin-error.ts";
import type { Answer } from "../agents/plugin-messages.ts";
import { startPluginThread } from "../agents/plugin-thread.ts";
import type { OdEventBody } from "../events.ts";
import type { Driver } from "./driver.ts";

/** How long a plugin's parse() (or finish()) may take on one line before its run is stopped. */
export const PARSE_WATCHDOG_MS = 2000;
/** How long a plugin's thread may take to start, load the plugin and make its state, counted from the run's start. */
export const OPEN_BUDGET_MS = 3000;

/** A run's session with its plugin's thread. */
interface Session {
  worker: Worker;
  port: MessagePort;
  flag: Int32Array;
  seq: number;
  /** Until when (performance.now()) the plugin may take to load: counted from the start. */
  openBy: number;
  opened: boolean;
  /** Set once the session is over (the watchdog fired, the plugin exited, or it could not be loaded). */
  over?: string;
}

/** Ends the thread of a session whose run was dropped without reaching the end of its output. */
const reaper = new FinalizationRegistry<Worker>((worker) => worker.terminate());

/**
 * A plugin's line protocol, run in a thread of its own (agents/plugin-worker.ts) under a
 * watchdog. JavaScript cannot interrupt a loop on its own thread, so a plugin's parse that never
 * returns would freeze od (and every run of `od serve`); here od's thread waits for each answer
 * at most `watchdogMs` (Atomics.wait), and a parse that misses it, or a plugin that exits, ends
 * the run with PLUGIN_ERROR. The driver stays synchronous, so the drive stage is unchanged. A
 * throw and an answer that is no list keep their usual meaning (interpret.ts keeps the line raw).
 * Built-ins never come here: they run in od's thread (their speed is benchmarked).
 */
export function watchedDriver(adapter: Adapter, path: string, clocks: { watchdogMs?: number; openMs?: number } = {}): Driver<Session> {
  const { watchdogMs = PARSE_WATCHDOG_MS, openMs = OPEN_BUDGET_MS } = clocks;
  const text = adapter.protocol.kind === "lines" && adapter.protocol.format === "text";
  const fail = (s: Session, why: string): OdEventBody[] => {
    end(s, why);
    return [{ type: "error", ...pluginError(adapter, why, path).toJSON() }];
  };
  return {
    name: "lines",
    keepStdinOpen: false,
    textLines: text,
    start: () => ({ state: open(adapter.id, path, openMs), send: [] }),
    receive: (_record, s, line) => {
      if (s.over) throw new Error(s.over); // the line is kept as raw
      const answer = ask(s, { kind: "line", line }, watchdogMs);
      if ("events" in answer) return { events: answer.events as OdEventBody[] };
      if ("threw" in answer) throw new Error(answer.threw);
      return { events: fail(s, answer.failed === "timeout" ? late(s, "parse()", clocks) : answer.failed) };
    },
    abort: () => [],
    finish: (s) => {
      if (s.over) return [];
      const answer = ask(s, { kind: "finish" }, watchdogMs);
      end(s, "finished");
      if ("events" in answer) return answer.events as OdEventBody[];
      if ("threw" in answer) throw new Error(answer.threw);
      return fail(s, answer.failed === "timeout" ? late(s, "finish()", clocks) : answer.failed);
    },
  };
}

function end(s: Session, why: string): void {
  s.over = why;
  s.worker.terminate();
  s.port.close();
}

function late(s: Session, what: string, { watchdogMs = PARSE_WATCHDOG_MS, openMs = OPEN_BUDGET_MS }): string {
  return s.opened
    ? `${what} did not return within ${watchdogMs} ms (a loop that never ends?); the run was stopped`
    : `it did not load and make its state in a thread of its own within ${openMs} ms; the run was stopped`;
}

/** Starts the plugin's thread and asks it to load the plugin; the first line waits for that. */
function open(id: string, path: string, openMs: number): Session {
  const worker = startPluginThread();
  worker.unref();
  const { port1, port2 } = new MessageChannel();
  const flag = new SharedArrayBuffer(4);
  const s: Session = { worker, port: port1, flag: new Int32Array(flag), seq: 1, openBy: performance.now() + openMs, opened: false };
  worker.postMessage({ kind: "open", seq: 1, path, id, port: port2, flag }, [port2]);
  reaper.register(s, worker);
  return s;
}

/**
 * One request to the plugin's thread and its answer, waited for synchronously: first for the
 * plugin to load (once, until its open budget from the start ends), then at most `watchdogMs` for the
 * answer; `{ failed: "timeout" }` when none came in time.
 */
function ask(s: Session, request: { kind: "line"; line: string } | { kind: "finish" }, watchdogMs: number): Answer {
  const seq = ++s.seq;
  s.worker.postMessage({ ...request, seq });
  if (!s.opened) {
    const opened = answerTo(s, 1, s.openBy - performance.now());
    if ("failed" in opened) return opened;
    s.opened = true;
  }
  return answerTo(s, seq, watchdogMs);
}

function answerTo(s: Session, seq: number, ms: number): Answer {
  const deadline = performance.now() + ms;
  for (let done = Atomics.load(s.flag, 0); done < seq; done = Atomics.load(s.flag, 0)) {
    const left = deadline - performance.now();
    if (left <= 0) return { seq, failed: "timeout" };
    Atomics.wait(s.flag, 0, done, left);
  }
  for (let m = receiveMessageOnPort(s.port); m; m = receiveMessageOnPort(s.port)) {
    const answer = m.message as Answer;
    if ("failed" in answer || answer.seq === seq) return answer; // "failed": the plugin could not be loaded, or exited
  }
  return { seq, failed: "its thread ended without an answer" };
}
