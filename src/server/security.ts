import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { OdError } from "../core/contract/errors.ts";

export const TOKEN_COOKIE = "od_token";

export interface SecurityOptions {
  /**
   * Host header values this server answers to (name:port), e.g. 127.0.0.1:7456 and localhost:7456;
   * "any" for a server listening beyond loopback, reached by names od cannot know, where the
   * token (always configured there) is the guard and a state-changing request must come from
   * the origin it was sent to.
   */
  allowedHosts: string[] | "any";
  /** The per-launch token every /api request must carry. */
  token: string;
  /** Where that token is saved (OD_HOME/server-token, the OD_HOME in force): what a refusal tells the client to read. */
  tokenFile: string;
}

/**
 * The challenge of a 401 (HTTP requires one): a Bearer token, with no `resource_metadata`, so an MCP
 * client finds no OAuth to start. A request that sent no token gets the bare challenge (RFC 6750
 * 3.1: no error code for a client that did not know it needed one); a wrong token, `invalid_token`.
 */
export function bearerChallenge(sent: boolean): string {
  return sent ? 'Bearer realm="od", error="invalid_token", error_description="The od token is wrong"' : 'Bearer realm="od"';
}

/**
 * A local daemon that spawns agents is a remote-code-execution target, so:
 * the Host must be ours (DNS rebinding), a state-changing request must come
 * from our own origin with a JSON body (CSRF), and every /api request must
 * carry the launch token (header, bearer or cookie), and so must every /mcp request.
 */
export function security(opts: SecurityOptions): MiddlewareHandler {
  const hosts = opts.allowedHosts === "any" ? undefined : new Set(opts.allowedHosts.map((h) => h.toLowerCase()));
  return async (c, next) => {
    const host = c.req.header("host")?.toLowerCase();
    if (!host || (hosts && !hosts.has(host)))
      throw new OdError("FORBIDDEN", `Host ${host ?? "(none)"} is not this server`, "Open od through the URL it printed.");
    const unsafe = !["GET", "HEAD", "OPTIONS"].includes(c.req.method);
    if (unsafe) {
      // The server's own origins: each allowed host, or (answering any host) the one this request was sent to.
      const origin = c.req.header("origin")?.toLowerCase();
      const ours = (h: string) => origin === `http://${h}`;
      if (origin && !(hosts ? [...hosts].some(ours) : ours(host)))
        throw new OdError("FORBIDDEN", `Origin ${origin} may not call this server`, "Requests must come from the od UI itself.");
      const type = c.req.header("content-type") ?? "";
      if (c.req.path.startsWith("/api/") && !type.toLowerCase().startsWith("application/json"))
        throw new OdError("INVALID_REQUEST", "Request bodies must be application/json", "Send Content-Type: application/json.");
    }
    if ((c.req.path.startsWith("/api/") && c.req.path !== "/api/health") || /^\/mcp(\/|$)/.test(c.req.path)) {
      const given = c.req.header("x-od-token") || bearer(c.req.header("authorization")) || getCookie(c, TOKEN_COOKIE);
      if (!given || !timingSafeEqual(given, opts.token)) {
        c.header("WWW-Authenticate", bearerChallenge(Boolean(given)));
        throw new OdError(
          "UNAUTHORIZED",
          given ? "The od token is wrong" : "Missing od token",
          `Send the token saved in ${opts.tokenFile} ("Authorization: Bearer <token>"; MCP clients: a header in their config for this server), or open the URL \`od serve\` printed.`,
        );
      }
    }
    await next();
  };
}

function bearer(header: string | undefined): string | undefined {
  return header?.toLowerCase().startsWith("bearer ") ? header.slice(7).trim() : undefined;
}

function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
