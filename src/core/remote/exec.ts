import { tmpdir } from "node:os";
import { OdError } from "../contract/errors.ts";
import type { Env } from "../contract/request.ts";
import { killGroup } from "../os/process-group.ts";
import { classifyRemote } from "./classify.ts";
import { controlDir } from "./control-dir.ts";
import { type EngineOptions, engineArgv, engineBin } from "./engines.ts";
import { formatTarget, type Target } from "./target.ts";

export interface ExecOptions {
  /** This machine's environment, for the engine's client (ssh-agent socket, kubeconfig, docker host). */
  env: Env;
  timeoutMs: number;
  /** stdout beyond this is cut (the client is stopped) and `cut` is set. */
  maxBytes?: number;
  engine?: EngineOptions;
}

export interface ExecResult {
  exitCode: number | null;
  stdout: Buffer;
  stderr: string;
  timedOut: boolean;
  cut: boolean;
}

/**
 * One short script on a target, through the engine's client (no local shell, no prompt: stdin is
 * closed): its exact stdout (bounded), its stderr, its exit. The client runs in a process group of
 * its own, ended at the time limit. A client that cannot start here is an OdError.
 */
export async function execOnTarget(target: Target, script: string, opts: ExecOptions): Promise<ExecResult> {
  const engine = opts.engine ?? { controlDir: controlDir() };
  let proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  try {
    proc = Bun.spawn(engineArgv(target, script, engine), {
      env: opts.env,
      cwd: tmpdir(),
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
      detached: true,
    });
  } catch (err) {
    throw new OdError(
      "TARGET_UNREACHABLE",
      `Could not start \`${engineBin(target)}\` to reach ${formatTarget(target)}: ${(err as Error).message}`,
      `Install ${engineBin(target)} on this machine, or put it on PATH.`,
    );
  }
  let timedOut = false;
  const stop = () => void killGroup(proc.pid, { intMs: 0, termMs: 200, killMs: 500 }).catch(() => {});
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, opts.timeoutMs);
  const [out, stderr] = await Promise.all([readBounded(proc.stdout, opts.maxBytes ?? 4 * 1024 * 1024, stop), tail(proc.stderr)]);
  await proc.exited;
  clearTimeout(timer);
  return { exitCode: timedOut ? null : proc.exitCode, stdout: out.bytes, stderr, timedOut, cut: out.cut };
}

/**
 * The error for a script that did not get to say it ran (its last marker missing): the target
 * unreachable (as classify.ts names it), or too slow, or a shell that failed.
 */
export function targetError(target: Target, r: ExecResult, what: string, timeoutMs: number): OdError {
  const where = formatTarget(target);
  if (r.timedOut)
    return new OdError(
      "TARGET_UNREACHABLE",
      `${where} did not answer within ${timeoutMs / 1000} s (${what})`,
      "Check the connection, then try again with --refresh.",
    );
  const c = classifyRemote(target, "sh", { exitCode: r.exitCode, signal: null, stderrTail: r.stderr, events: [] });
  if (c?.code === "TARGET_UNREACHABLE") return new OdError("TARGET_UNREACHABLE", c.message, c.hint);
  const said = r.stderr.trim().split("\n").pop()?.slice(0, 300);
  return new OdError("TARGET_UNREACHABLE", `${what} on ${where} failed (exit ${r.exitCode})${said ? `: ${said}` : ""}`, c?.hint);
}

async function readBounded(stream: ReadableStream<Uint8Array>, max: number, stop: () => void): Promise<{ bytes: Buffer; cut: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > max) {
      stop();
      return { bytes: Buffer.concat(chunks).subarray(0, max), cut: true };
    }
  }
  return { bytes: Buffer.concat(chunks), cut: false };
}

/** The last 8 KiB of stderr (ssh's own complaints come last). */
async function tail(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = "";
  for await (const chunk of stream) text = (text + new TextDecoder().decode(chunk)).slice(-8192);
  return text;
}
