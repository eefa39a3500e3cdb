import { frameLines } from "../os/lines.ts";
import { probeSlots } from "../os/probe.ts";
import { killGroup } from "../os/process-group.ts";
import type { Slots } from "../os/slots.ts";
import { VERSION } from "../os/version.ts";
import { acpModels, acpModes, type Listed } from "./acp-models.ts";
import { classify, errorResponse, METHOD_NOT_FOUND, request } from "./jsonrpc.ts";
import { asRecord, safeJson } from "./parse-helpers.ts";

/**
 * What an ACP agent offers before any prompt: a detection-time probe that
 * starts the agent's ACP command, sends `initialize` then `session/new` (in a
 * folder the caller made for it), reads the models and modes from the answer
 * and stops the agent's whole process group. It never sends a prompt, answers
 * every request from the agent with "method not found", and gives up at its
 * time limit, which runs from its start: like every probe, it first waits for
 * one of the probe slots (probeSlots() unless given). Undefined when the agent did not answer both in time (not logged
 * in, an error, a crash, silence).
 */

export interface AcpOffer {
  models: Listed[];
  modes: Listed[];
}

export interface AcpProbeSpec {
  /** The executable and its ACP arguments. */
  cmd: string[];
  env: Record<string, string | undefined>;
  /** The session's folder: absolute, made (and removed) by the caller. */
  cwd: string;
  timeoutMs: number;
  slots?: Slots;
}

const QUICK = { intMs: 0, termMs: 300, killMs: 500 };
const FS_AND_TERMINAL_OFF = { fs: { readTextFile: false, writeTextFile: false }, terminal: false };

export function probeAcpSession(spec: AcpProbeSpec): Promise<AcpOffer | undefined> {
  return (spec.slots ?? probeSlots()).run(() => probeNow(spec));
}

async function probeNow(spec: AcpProbeSpec): Promise<AcpOffer | undefined> {
  let proc: Bun.Subprocess<"pipe", "pipe", "ignore">;
  try {
    proc = Bun.spawn(spec.cmd, { cwd: spec.cwd, env: spec.env, stdin: "pipe", stdout: "pipe", stderr: "ignore", detached: true });
  } catch {
    return undefined; // cannot be started
  }
  const timer = setTimeout(() => void killGroup(proc.pid, QUICK), spec.timeoutMs);
  try {
    return await converse(proc, spec.cwd);
  } finally {
    clearTimeout(timer);
    try {
      proc.stdin.end();
    } catch {}
    await killGroup(proc.pid, QUICK);
  }
}

/** initialize → session/new over the child's pipes; the answer to session/new is the offer. */
async function converse(proc: Bun.Subprocess<"pipe", "pipe", "ignore">, cwd: string): Promise<AcpOffer | undefined> {
  const send = (frame: unknown) => {
    try {
      proc.stdin.write(`${JSON.stringify(frame)}\n`);
      proc.stdin.flush();
    } catch {
      // The agent is gone: its stdout ends and so does the loop below.
    }
  };
  send(
    request(1, "initialize", { protocolVersion: 1, clientCapabilities: FS_AND_TERMINAL_OFF, clientInfo: { name: "od", version: VERSION } }),
  );
  for await (const frame of frameLines(proc.stdout, 8 * 1024 * 1024)) {
    if (frame.kind !== "line") continue;
    const message = classify(safeJson(frame.text));
    if (message.kind === "request") send(errorResponse(message.id, METHOD_NOT_FOUND, `od does not provide ${message.method}`));
    if (message.kind !== "response") continue;
    if (message.error) return undefined; // e.g. auth_required at session/new
    if (message.id === 1) send(request(2, "session/new", { cwd, mcpServers: [] }));
    else if (message.id === 2) {
      const session = asRecord(message.result) ?? {};
      return { models: acpModels(session), modes: acpModes(session) };
    }
  }
  return undefined;
}
