import { Readable, Writable } from "node:stream";
import { ndJsonStream } from "@agentclientprotocol/sdk";
import { serveAcp } from "../acp/serve.ts";
import { loadRegistry } from "../builtins.ts";
import { OdError } from "../core/contract/errors.ts";
import type { Mode } from "../core/contract/events.ts";
import { onStopSignals } from "../core/os/stop-signals.ts";
import { boundedStdin } from "../core/protocols/bounded-lines.ts";
import { createOd } from "../od.ts";
import { ABOUT } from "./about.ts";
import { odCommand } from "./command.ts";
import { log } from "./log.ts";
import { applySandbox, sandboxArg } from "./sandbox.ts";

/** How long od acp waits, after its client has gone, for probes it started to end (detection bounds each at 15 s). */
const PROBE_BOUND_MS = 16_000;

export default odCommand({
  meta: { name: "acp", description: ABOUT.acp },
  args: {
    agent: { type: "string", alias: "a", description: 'The agent every session runs (else the session\'s "agent" option)' },
    mode: {
      type: "enum",
      options: ["read-only", "edit", "full"],
      default: "edit",
      description: "What the agent may do, and the most a session may choose: read-only, edit (files in cwd), full",
    },
    model: {
      type: "string",
      alias: "m",
      description: "Each new session's model (else the agent's default; the session's \"model\" option)",
    },
    ...sandboxArg,
  },
  async run({ args }) {
    applySandbox(args);
    const registry = await loadRegistry();
    if (registry.errors.length) log.warn(`${registry.errors.length} plugin(s) failed to load; see \`od plugins\``);
    const mode = args.mode as Mode;
    if (args.agent && !registry.get(args.agent)) throw new OdError("AGENT_UNKNOWN", `No adapter named "${args.agent}"`, "See `od agents`.");
    // stdout is the protocol's alone: od's own words go to stderr (log). Each line is bounded before
    // the SDK reads it: one over the limit is answered with an error and skipped; the session goes on.
    const input = boundedStdin((message) => log.warn(message));
    const stream = ndJsonStream(
      Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
      Readable.toWeb(input) as unknown as ReadableStream<Uint8Array>, // node's web stream type, not the browser lib's
    );
    const stop = new AbortController();
    const offStop = onStopSignals((_signal, count) => {
      if (count > 1) process.exit(130); // a second one while runs end: leave now (the sentinel still ends their agents)
      stop.abort();
    });
    const od = await createOd({ registry, recording: "best-effort", warn: (message) => log.warn(message) });
    await serveAcp(stream, {
      od,
      agent: args.agent,
      mode,
      model: args.model === "default" ? undefined : args.model,
      log: (message) => log.warn(message),
      signal: stop.signal,
    });
    offStop();
    // The conversation is over. A probe still running (an agent's model catalog: at most 15 s) ends
    // on its own timeout before od exits, so none is left behind; the timer only bounds that wait.
    process.stdin.destroy();
    setTimeout(() => process.exit(process.exitCode ?? 0), PROBE_BOUND_MS).unref();
  },
});
