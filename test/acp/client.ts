/**
 * An ACP client for tests, made of the SDK's own client side (nothing of od's): it spawns a command
 * that speaks ACP on stdio (`dist/od acp …`), collects every session/update, and answers permission
 * requests with `answer` (allow by default).
 */
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import {
  client,
  ndJsonStream,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
} from "@agentclientprotocol/sdk";

export type Answer = (req: RequestPermissionRequest) => RequestPermissionResponse | Promise<RequestPermissionResponse>;

export const allow: Answer = (req) => ({
  outcome: { outcome: "selected", optionId: req.options.find((o) => o.kind === "allow_once")!.optionId },
});

export function acpClient(argv: string[], env: Record<string, string>, answer: Answer = allow) {
  const child = spawn(argv[0]!, argv.slice(1), { env, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const updates: SessionNotification[] = [];
  const asked: RequestPermissionRequest[] = [];
  const waiters: Array<() => void> = [];
  const app = client({ name: "od-test" })
    .onNotification("session/update", ({ params }) => {
      updates.push(params);
      for (const w of waiters.splice(0)) w();
    })
    .onRequest("session/request_permission", async ({ params }) => {
      asked.push(params);
      return answer(params);
    });
  const stream = ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as unknown as ReadableStream<Uint8Array>, // node's web stream type, not the browser lib's
  );
  const connection = app.connect(stream);
  const agent = connection.agent;
  return {
    child,
    agent,
    updates,
    asked,
    exited,
    stderr: () => stderr,
    /** The session's updates of one kind. */
    of: <K extends SessionNotification["update"]["sessionUpdate"]>(kind: K) =>
      updates
        .map((n) => n.update)
        .filter((u): u is Extract<SessionNotification["update"], { sessionUpdate: K }> => u.sessionUpdate === kind),
    /** Resolves once an update satisfies `pred`. */
    async until(pred: (n: SessionNotification) => boolean): Promise<void> {
      while (!updates.some(pred)) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    async initialize() {
      return agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    },
    async newSession(cwd: string) {
      return agent.request("session/new", { cwd, mcpServers: [] });
    },
    prompt(sessionId: string, text: string) {
      return agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
    },
    async close() {
      connection.close();
      child.stdin.end();
      return exited;
    },
  };
}
