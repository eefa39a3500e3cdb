import { join } from "node:path";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Registry } from "../core/agents/registry.ts";
import { type ErrorCode, OdError } from "../core/contract/errors.ts";
import { odHome } from "../core/os/paths.ts";
import type { Runs } from "../core/runs/service.ts";
import { compareRoutes } from "./routes/compare.ts";
import { type McpOptions, mcpRoutes } from "./routes/mcp.ts";
import { metaRoutes } from "./routes/meta.ts";
import { noOAuthRoutes } from "./routes/no-oauth.ts";
import { resultRoutes } from "./routes/results.ts";
import { runRoutes } from "./routes/runs.ts";
import { targetRoutes } from "./routes/targets.ts";
import { uploadRoutes } from "./routes/uploads.ts";
import { usageRoutes } from "./routes/usage.ts";
import { security } from "./security.ts";
import type { Targets } from "./targets.ts";
import { type PageSettings, uiRoutes } from "./ui.ts";

export interface AppDeps {
  registry: Registry;
  /** od's run service: every run and compare run the server starts, records and serves. */
  runs: Runs;
  /** The named targets clients may run on (OD_HOME/targets.json), each with slots of its own. */
  targets?: Targets;
  token: string;
  /** Where the token is saved, for the hint of a refused request (default: OD_HOME/server-token of `env`). */
  tokenFile?: string;
  allowedHosts: string[] | "any";
  env?: Record<string, string | undefined>;
  heartbeatMs?: number;
  maxBodyBytes?: number;
  /** What MCP clients at /mcp may ask for (default: read-only, in the server's folder). */
  mcp?: McpOptions;
  /** What the web UI's page is told (how often it checks on the server). */
  page?: PageSettings;
}

const STATUS: Partial<Record<ErrorCode, ContentfulStatusCode>> = {
  INVALID_REQUEST: 400,
  MODEL_NOT_AVAILABLE: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  RUN_NOT_FOUND: 404,
  AGENT_UNKNOWN: 404,
  CANCELLED: 503, // the server is shutting down
  STORAGE: 507, // OD_HOME is full or not writable: Insufficient Storage
  TARGET_UNREACHABLE: 502, // the ssh host, container or pod did not answer: Bad Gateway
  ENDPOINT_UNREACHABLE: 502, // the api loop's model server did not answer: Bad Gateway
};

/** The od server as a Hono app; `Bun.serve` or `app.request()` drive it. */
export function createApp(deps: AppDeps) {
  const app = new Hono();
  const tokenFile = deps.tokenFile ?? join(odHome(deps.env), "server-token");
  app.use(security({ token: deps.token, allowedHosts: deps.allowedHosts, tokenFile }));
  app.route("/api", uploadRoutes(deps.env)); // before the general limit: images are larger than other bodies
  app.use(
    "/api/*",
    bodyLimit({
      maxSize: deps.maxBodyBytes ?? 1024 * 1024,
      onError: () => {
        throw new OdError("INVALID_REQUEST", "The request body is too large");
      },
    }),
  );
  app.route("/api", metaRoutes(deps.registry, deps.env));
  app.route("/api", runRoutes(deps.runs, deps.registry, { heartbeatMs: deps.heartbeatMs, targets: deps.targets }));
  app.route("/api", resultRoutes(deps.runs));
  app.route("/api", compareRoutes(deps.runs, deps.registry, deps.targets));
  app.route("/api", targetRoutes(deps.targets));
  app.route("/api", usageRoutes(deps.runs));
  app.route("/mcp", mcpRoutes(deps.mcp ?? {}, deps.registry, deps.runs, deps.env));
  app.route("/", noOAuthRoutes(tokenFile)); // what an MCP client looking for OAuth finds: none, and the token to send
  app.route("/", uiRoutes(deps.token, deps.page));
  app.notFound((c) => c.json({ error: { code: "INVALID_REQUEST", message: `No route ${c.req.method} ${c.req.path}` } }, 404));
  // The one place the server renders errors.
  app.onError((err, c) => {
    const e = OdError.from(err);
    return c.json({ error: { code: e.code, message: e.message, hint: e.hint } }, STATUS[e.code] ?? 500);
  });
  return app;
}

export type App = ReturnType<typeof createApp>;
