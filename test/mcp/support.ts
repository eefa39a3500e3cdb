/** The MCP SDK's own client over `dist/od mcp` (stdio), and what tests read of a tool result. */

import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult, Progress } from "@modelcontextprotocol/sdk/types.js";
import { DIST_OD } from "../helpers.ts";

export interface RunOutcome {
  runId: string;
  status: "succeeded" | "failed" | "cancelled";
  text: string;
  sessionId?: string;
  resumable: boolean;
  files: string[];
  diff?: string;
  error?: { code: string; message: string; hint?: string };
}

/** Connects the SDK's client to `od mcp <args>` with `env` (the fake's PATH, HOME, OD_HOME), in `cwd`. */
export async function connectStdio(args: string[], env: Record<string, string>, cwd: string) {
  const transport = new StdioClientTransport({
    command: DIST_OD,
    args: ["mcp", ...args],
    env: { NO_COLOR: "1", ...env },
    cwd,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: "od-test", version: "1.0.0" });
  await client.connect(transport);
  return {
    client,
    transport,
    stderr: () => stderr,
    [Symbol.asyncDispose]: () => client.close(),
  };
}

/** Calls a tool, gathering its progress notifications. */
export async function call(client: Client, name: string, args: Record<string, unknown>, onProgress?: (p: Progress) => void) {
  const progress: Progress[] = [];
  const result = (await client.callTool({ name, arguments: args }, undefined, {
    onprogress: (p) => {
      progress.push(p);
      onProgress?.(p);
    },
    timeout: 60_000,
  })) as CallToolResult;
  return { result, progress, texts: result.content.map((c) => (c.type === "text" ? c.text : "")) };
}

/** run_agent's structured answer. */
export function outcomeOf(result: CallToolResult): RunOutcome {
  return result.structuredContent as unknown as RunOutcome;
}

/** The runId the first progress notification of run_agent tells. */
export function runIdFrom(p: Progress): string | undefined {
  return /run ([0-9a-f-]{36}) started/.exec(p.message ?? "")?.[1];
}

/** The CPU time (user + system, seconds) a process has used so far, from /proc/<pid>/stat. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime and stime, in clock ticks (USER_HZ 100)
}

/** A process's peak resident memory so far (VmHWM), in MiB. */
export function peakMiB(pid: number): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kb) / 1024;
}
