/**
 * ACP's SDK generations as clients of `od acp`, and every message od sends checked against the
 * schema of the generation that asked: the current `@agentclientprotocol/sdk` (od's own dependency)
 * and `@zed-industries/agent-client-protocol` 0.4.5 (what earlier Zed builds embed), installed
 * outside the repo by .ci/run into ~/.cache/od-acp-sdk-045 (or $OD_ACP_SDK_045).
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { isDeepStrictEqual } from "node:util";
import { ROOT } from "../helpers.ts";

type Msg = Record<string, any>;
/** What a schema needs to be to check a message: zod 3's and zod 4's `safeParse`. */
type Schema = { safeParse(v: unknown): { success: true; data: unknown } | { success: false; error: unknown } };

/** One generation's schemas by method: the params of what od asks and notifies, the result of what it answers. */
export interface Generation {
  name: string;
  requests: Record<string, Schema>;
  notifications: Record<string, Schema>;
  results: Record<string, Schema>;
  /**
   * Parsing must keep every field of the message as it was (defaults may be added): the current
   * SDK's schemas salvage a bad field (a default instead of an error) and drop keys they do not
   * know, which would hide both.
   */
  exact: boolean;
}

/** Where 0.4.5 is installed, or undefined (the generations test then skips, saying why). */
export const SDK_045 = [process.env.OD_ACP_SDK_045, join(homedir(), ".cache/od-acp-sdk-045")]
  .filter((d): d is string => !!d)
  .map((d) => join(d, "node_modules/@zed-industries/agent-client-protocol/dist"))
  .find((d) => existsSync(join(d, "acp.js")));

export async function current(): Promise<Generation> {
  const z = await import(join(ROOT, "node_modules/@agentclientprotocol/sdk/dist/v1/schema/zod.gen.js"));
  return {
    name: "@agentclientprotocol/sdk (current)",
    requests: { "session/request_permission": z.zRequestPermissionRequest },
    notifications: { "session/update": z.zSessionNotification },
    results: {
      initialize: z.zInitializeResponse,
      "session/new": z.zNewSessionResponse,
      "session/load": z.zLoadSessionResponse,
      "session/prompt": z.zPromptResponse,
      "session/set_mode": z.zSetSessionModeResponse,
      "session/set_config_option": z.zSetSessionConfigOptionResponse,
    },
    exact: true,
  };
}

export async function zed045(dir: string): Promise<Generation> {
  const s = await import(join(dir, "schema.js"));
  return {
    name: "@zed-industries/agent-client-protocol 0.4.5",
    requests: { "session/request_permission": s.requestPermissionRequestSchema },
    notifications: { "session/update": s.sessionNotificationSchema },
    results: {
      initialize: s.initializeResponseSchema,
      "session/new": s.newSessionResponseSchema,
      "session/load": s.loadSessionResponseSchema,
      "session/prompt": s.promptResponseSchema,
      "session/set_mode": s.setSessionModeResponseSchema,
    },
    exact: false,
  };
}

/**
 * `argv` (`dist/od acp …`) spawned, its stdio as web streams for an SDK's ndJsonStream, and every
 * line each side wrote, parsed, in order: `sent` is od's, `received` the client's.
 */
export function tapped(argv: string[], env: Record<string, string>) {
  const child = spawn(argv[0]!, argv.slice(1), { env, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const sent: Msg[] = [];
  const received: Msg[] = [];
  const tap = (into: Msg[]) => {
    let buf = "";
    const decoder = new TextDecoder();
    return new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        buf += decoder.decode(chunk, { stream: true });
        const lines = buf.split("\n");
        buf = lines.pop()!;
        for (const line of lines) if (line.trim()) into.push(JSON.parse(line));
        out.enqueue(chunk);
      },
    });
  };
  const fromOd = (Readable.toWeb(child.stdout) as unknown as ReadableStream<Uint8Array>).pipeThrough(tap(sent));
  const toOd = tap(received);
  toOd.readable.pipeTo(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>).catch(() => {});
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, input: fromOd, output: toOd.writable, sent, received, exited, stderr: () => stderr };
}

/**
 * What in `sent` does not hold to `gen`: each request and notification by its method, each result
 * by the method of the client's request it answers, each error as JSON-RPC's. Empty when all hold.
 */
export function problems(gen: Generation, sent: Msg[], received: Msg[]): string[] {
  const asked = new Map(received.filter((m) => m.method && m.id !== undefined).map((m) => [JSON.stringify(m.id), m.method as string]));
  const out: string[] = [];
  for (const m of sent) {
    const label = m.method ?? `answer to ${asked.get(JSON.stringify(m.id)) ?? `unknown request ${JSON.stringify(m.id)}`}`;
    if (m.jsonrpc !== "2.0") out.push(`${label}: jsonrpc is not "2.0"`);
    if (m.error) {
      if (!Number.isInteger(m.error.code) || typeof m.error.message !== "string") out.push(`${label}: a malformed error`);
      continue;
    }
    const method = m.method ?? asked.get(JSON.stringify(m.id));
    const schema = !m.method ? gen.results[method] : m.id !== undefined ? gen.requests[method] : gen.notifications[method];
    if (!schema) {
      out.push(`${label}: not a message of ${gen.name}`);
      continue;
    }
    const value = m.method ? m.params : m.result;
    const parsed = schema.safeParse(value);
    if (!parsed.success) out.push(`${label}: ${String(parsed.error).slice(0, 600)} in ${JSON.stringify(value).slice(0, 300)}`);
    else if (gen.exact) {
      const changed = changedAt(value, JSON.parse(JSON.stringify(parsed.data)));
      if (changed !== undefined) out.push(`${label}: the schema dropped or changed ${changed} of ${JSON.stringify(value).slice(0, 300)}`);
    }
  }
  return out;
}

/** Where `parsed` lost or changed something of `sent` (a path), or undefined when it kept all of it. */
function changedAt(sent: unknown, parsed: unknown, path = "$"): string | undefined {
  if (Array.isArray(sent)) {
    if (!Array.isArray(parsed) || parsed.length !== sent.length) return path;
    for (const [i, v] of sent.entries()) {
      const at = changedAt(v, parsed[i], `${path}[${i}]`);
      if (at) return at;
    }
    return undefined;
  }
  if (sent && typeof sent === "object") {
    if (!parsed || typeof parsed !== "object") return path;
    for (const [k, v] of Object.entries(sent)) {
      const at = changedAt(v, (parsed as Msg)[k], `${path}.${k}`);
      if (at) return at;
    }
    return undefined;
  }
  return isDeepStrictEqual(sent, parsed) ? undefined : path;
}

/** Every location path in `messages` (any `locations: [{ path }]`, at any depth). */
export function locationPaths(messages: unknown): string[] {
  if (Array.isArray(messages)) return messages.flatMap(locationPaths);
  if (!messages || typeof messages !== "object") return [];
  return Object.entries(messages).flatMap(([k, v]) =>
    k === "locations" && Array.isArray(v) ? v.map((l) => String(l?.path)) : locationPaths(v),
  );
}
