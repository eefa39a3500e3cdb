import { Hono } from "hono";

/**
 * od serve guards /mcp and /api with a static token, not OAuth. An MCP client that meets a 401 may
 * still look for OAuth (RFC 9728 protected resource metadata, RFC 8414 / OpenID discovery) and, if
 * it finds none, try the endpoints OAuth's older MCP default names (/register, /authorize, /token).
 * Here the discovery documents are a plain 404 (JSON, never the UI's page), so a client that reads
 * them finds no OAuth; and each endpoint answers in OAuth's own error format (RFC 6749 5.2, which
 * the MCP SDK's client shows as its error) with what to do instead: send the token.
 */
export function noOAuthRoutes(tokenFile: string) {
  const refused = {
    error: "invalid_request",
    error_description: `od serve has no OAuth: send the token saved in ${tokenFile} as "Authorization: Bearer <token>" (in the MCP client's headers for this server).`,
  };
  const notFound = { error: { code: "INVALID_REQUEST", message: "od serve has no OAuth metadata", hint: refused.error_description } };
  return new Hono()
    .get("/.well-known/oauth-protected-resource/*", (c) => c.json(notFound, 404))
    .get("/.well-known/oauth-protected-resource", (c) => c.json(notFound, 404))
    .get("/.well-known/oauth-authorization-server/*", (c) => c.json(notFound, 404))
    .get("/.well-known/oauth-authorization-server", (c) => c.json(notFound, 404))
    .get("/.well-known/openid-configuration/*", (c) => c.json(notFound, 404))
    .get("/.well-known/openid-configuration", (c) => c.json(notFound, 404))
    .all("/register", (c) => c.json(refused, 404))
    .all("/authorize", (c) => c.json(refused, 404))
    .all("/token", (c) => c.json(refused, 404));
}
