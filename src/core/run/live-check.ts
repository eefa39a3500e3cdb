import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Registry } from "../agents/registry.ts";
import { createRun } from "./pipeline.ts";

export const LIVE_PROMPT = "This is a connectivity check from od. Reply with the single word OK and do nothing else.";

export interface LiveReport {
  agent: string;
  status: "succeeded" | "failed" | "cancelled";
  model?: string;
  /** The first 200 characters of the answer. */
  answer: string;
  error?: { code: string; message: string; hint?: string };
  /** Files the agent left in its empty working directory (must be none in read-only mode). */
  written: string[];
  durationMs: number;
  exitCode: number | null;
}

/**
 * One tiny read-only prompt to a real agent in a fresh empty directory: does it
 * answer, with which model, and did it write nothing? The report holds no
 * environment, keys or paths of the user, so it can be pasted into a bug.
 */
export async function liveCheck(
  agent: string,
  registry: Registry,
  opts: { env?: Record<string, string | undefined>; timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<LiveReport> {
  const cwd = mkdtempSync(join(tmpdir(), "od-live-check-"));
  const report: LiveReport = { agent, status: "failed", answer: "", written: [], durationMs: 0, exitCode: null };
  try {
    // One attempt: a live check reports what the agent does now, not after od's retries.
    for await (const e of createRun(
      { agent, prompt: LIVE_PROMPT, cwd, mode: "read-only", timeoutMs: opts.timeoutMs ?? 120_000 },
      { registry, env: opts.env, signal: opts.signal, retry: { attempts: 1 } },
    )) {
      if (e.type === "session" && e.model) report.model = e.model;
      if (e.type === "text.delta" && report.answer.length < 200) report.answer = (report.answer + e.text).slice(0, 200);
      if (e.type === "error" && !report.error) report.error = { code: e.code, message: e.message.slice(0, 500), hint: e.hint };
      if (e.type === "run.finished") Object.assign(report, { status: e.status, durationMs: e.durationMs, exitCode: e.exitCode });
    }
    report.written = readdirSync(cwd, { recursive: true }).map(String);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
  return report;
}
