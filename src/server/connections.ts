import type { Context } from "hono";
import { fdLimit } from "./libc.ts";

/** Seconds a connection may sit idle (no request, or a slow handler sending nothing) before the server closes it. */
export const IDLE_TIMEOUT_S = 30;

/** Connections the server keeps at most, unless the process may open fewer files. */
export const MAX_CONNECTIONS = 512;

/** What the guard needs of Bun's server (an interface, so a test can stand in for it). */
export interface ConnectionServer {
  readonly pendingRequests: number;
  closeIdleConnections(): number;
  requestIP(req: Request): { address: string; port: number } | null;
}

/**
 * The cap on concurrent connections: `max`, or three quarters of the files the
 * process may open, if fewer (each connection is a file descriptor; the rest
 * is for runs' logs and pipes).
 */
export function connectionCap(max = MAX_CONNECTIONS, files = fdLimit()): number {
  return files === undefined ? max : Math.min(max, Math.max(8, Math.floor(files * 0.75)));
}

/**
 * Keeps the server reachable however many connections clients leave open.
 * Bun tells a server neither when a connection opens nor when it closes, only
 * of requests and which connection (address and port) each came on, so: each
 * connection not seen before counts against the cap, and when the count
 * reaches it the idle keep-alive connections are closed at once (a client
 * opens a new one when it needs it), the count starting again from the
 * requests in flight. Requests in flight beyond the cap (SSE streams are
 * long ones) are refused quickly with 503 and their connection closed.
 */
export class ConnectionGuard {
  private seen = new Set<string>();

  constructor(readonly cap: number) {}

  /** A 503 for a request beyond the cap, or undefined to serve it. */
  admit(req: Request, server: ConnectionServer): Response | undefined {
    const ip = server.requestIP(req);
    const key = ip ? `${ip.address}|${ip.port}` : "";
    if (!this.seen.has(key)) {
      if (this.seen.size + server.pendingRequests > this.cap) {
        server.closeIdleConnections();
        this.seen.clear();
      }
      this.seen.add(key);
    }
    if (server.pendingRequests <= this.cap) return undefined;
    const error = {
      code: "RATE_LIMITED",
      message: `The server has ${this.cap} requests in flight, its limit`,
      hint: "Close event streams you no longer read, then try again.",
    };
    return Response.json({ error }, { status: 503, headers: { connection: "close", "retry-after": "1" } });
  }
}

/** Sets this request's idle timeout (0: none, for a stream that must stay open); nothing where no Bun server runs it (`app.request`). */
export function keepOpen(c: Context, seconds: number): void {
  const server = (c.env as { server?: { timeout?(req: Request, seconds: number): void } } | undefined)?.server;
  server?.timeout?.(c.req.raw, seconds);
}
