/**
 * A plugin's own thread (a Worker): where od first imports a plugin to vet it, and where a
 * plugin's line parser runs during a run. Whatever the plugin does here — `process.exit`, a loop
 * that never ends, a promise that never settles — ends or stalls this thread only; od's thread
 * sees it and blames the plugin. Bundled on its own into the compiled binary
 * (plugin-worker-code.ts), so it imports core and zod only, and nothing that starts threads.
 *
 * Vetting: a `vet` request, answered with a Verdict. Parsing: `open`, then `line`s and `finish`;
 * each Answer goes to the session's port, in order, where od's thread takes it as it comes
 * (never blocking on it: agents/watched.ts).
 */
import { plugin } from "bun";
import type { LinesProtocol } from "../contract/adapter.ts";
import { describeError, pluginValues, registerPluginApi } from "./plugin-import.ts";
import type { AnswerBody, Request, Verdict } from "./plugin-messages.ts";

interface Session {
  port: MessagePort;
  protocol?: LinesProtocol<unknown>;
  state?: unknown;
  /** Why the plugin could not be opened: every later request is answered with it. */
  failed?: string;
}

// Everything below changes the thread it runs in (process.exit, the "od/plugin" module): never od's own.
if (Bun.isMainThread) throw new Error("plugin-worker.ts is the entry of a plugin's thread, not a module to import");

let session: Session | undefined;
let seq = 0;

/** The plugin API, loaded (with zod) only when the plugin asks for it: a thread whose plugin never does starts in a few ms. */
const api = () => require("./plugin-api.ts") as Record<string, unknown>;
registerPluginApi(plugin, api);

// A plugin's stray timer that throws later is its own business, as in od's thread.
process.on("uncaughtException", () => {});
process.on("unhandledRejection", () => {});

// process.exit ends this thread only; say so first, so od's thread need not wait out its clock.
const exit = process.exit.bind(process);
process.exit = ((code?: number | string | null) => {
  const n = Number(code ?? process.exitCode ?? 0);
  if (session) answer({ failed: `called process.exit(${n}) while parsing` });
  else verdict({ exited: n });
  return exit(n);
}) as typeof process.exit;

/** A session's requests, one after another: lines that arrive while the plugin loads wait for it. */
let queue: Promise<void> = Promise.resolve();

addEventListener("message", (e: MessageEvent<Request>) => {
  const m = e.data;
  if (m.kind === "vet") return void vet(m.path);
  queue = queue.then(() => handle(m));
});

async function handle(m: Exclude<Request, { kind: "vet" }>): Promise<void> {
  seq = m.seq;
  if (m.kind === "open") return open(m);
  if (!session) return;
  if (session.failed || !session.protocol) return answer({ failed: session.failed ?? "not opened" });
  const { protocol, state } = session;
  if (m.kind === "finish") return call(() => protocol.finish?.(state) ?? []);
  const line = m.line;
  call(() => protocol.parse(protocol.format === "text" ? line : JSON.parse(line), state, line));
}

async function vet(path: string): Promise<void> {
  try {
    await pluginValues(path, api); // od's thread validates what it gives
    verdict({ ok: true });
  } catch (err) {
    verdict({ error: describeError(err) });
  }
}

async function open(m: Extract<Request, { kind: "open" }>): Promise<void> {
  session = { port: m.port };
  try {
    const adapter = (await pluginValues(m.path, api)).find((a) => (a as { id?: unknown })?.id === m.id) as
      | { protocol?: LinesProtocol<unknown> }
      | undefined;
    const protocol = adapter?.protocol;
    if (protocol?.kind !== "lines") throw new Error(`it no longer has a line adapter "${m.id}"`);
    session.protocol = protocol;
    session.state = protocol.createState();
    answer({ events: [] });
  } catch (err) {
    session.failed = `could not be loaded in its own thread: ${describeError(err)}`;
    answer({ failed: session.failed });
  }
}

/** Runs one of the plugin's functions and answers with its events; a throw (or an answer that cannot cross threads) is a `threw`. */
function call(f: () => unknown): void {
  let events: unknown;
  try {
    events = f();
  } catch (err) {
    return answer({ threw: describeError(err) });
  }
  try {
    answer({ events });
  } catch (err) {
    answer({ threw: `answered what cannot be passed on: ${describeError(err)}` });
  }
}

function verdict(v: Verdict): void {
  postMessage(v);
}

function answer(body: AnswerBody): void {
  session!.port.postMessage({ seq, ...body });
}
