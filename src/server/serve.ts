import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Registry } from "../core/agents/registry.ts";
import { OdError } from "../core/contract/errors.ts";
import { odHome } from "../core/os/paths.ts";
import { Slots } from "../core/os/slots.ts";
import type { Recovered } from "../core/runs/recover.ts";
import type { Runs } from "../core/runs/service.ts";
import { storageError } from "../core/store/fault.ts";
import type { McpPolicy } from "../mcp/roots.ts";
import { odWith } from "../od.ts";
import { createApp } from "./app.ts";
import { ConnectionGuard, connectionCap, IDLE_TIMEOUT_S } from "./connections.ts";
import { checkHome, claimHome } from "./home.ts";
import { loadTargets, type Targets } from "./targets.ts";
import type { PageSettings } from "./ui.ts";

export interface ServeOptions {
  host: string;
  port: number;
  maxRuns: number;
  registry: Registry;
  /** A fixed token (required for a non-loopback host); else a random one per launch. */
  token?: string;
  /** Where a failure no client can be told of is reported (stderr in `od serve`). */
  warn?: (message: string) => void;
  env?: Record<string, string | undefined>;
  /** Seconds an idle connection is kept (event streams excepted); default 30. */
  idleTimeoutSeconds?: number;
  /** Connections at most (default 512, fewer if the process may open fewer files); beyond it, 503. */
  maxConnections?: number;
  /** What MCP clients at /mcp may ask for (default: read-only, in this process's folder). */
  mcp?: McpPolicy;
  /** What the web UI's page is told: how often an idle page checks on the server (healthMs, default 5000). */
  page?: PageSettings;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/**
 * Starts the server: listens, takes over OD_HOME (its token file and run log),
 * recovers runs a dead server left live, and returns how to stop it. Nothing in
 * OD_HOME is touched until the port is bound and no other live server owns it
 * (but for a probe write first: a home od cannot write is a STORAGE error).
 */
export function startServer(opts: ServeOptions) {
  const env = opts.env ?? process.env;
  if (!LOOPBACK.has(opts.host) && !opts.token)
    throw new OdError(
      "INVALID_REQUEST",
      `Refusing to listen on ${opts.host} without a configured token`,
      "Set OD_SERVER_TOKEN to listen beyond loopback; anyone who can reach the port can run agents.",
    );
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535)
    throw new OdError("INVALID_REQUEST", `--port must be a whole number from 0 to 65535, not ${opts.port}`, "0 picks a free port.");
  const slots = new Slots(opts.maxRuns);
  let app: ReturnType<typeof createApp> | undefined;
  let server: ReturnType<typeof Bun.serve>;
  const guard = new ConnectionGuard(connectionCap(opts.maxConnections));
  try {
    server = Bun.serve({
      hostname: opts.host,
      port: opts.port,
      // An idle connection is closed; an event stream lifts the timeout for itself (keepOpen) and sends heartbeats.
      idleTimeout: opts.idleTimeoutSeconds ?? IDLE_TIMEOUT_S,
      fetch: (req, srv) => guard.admit(req, srv) ?? app!.fetch(req, { server: srv }),
    });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e?.code === "EADDRINUSE")
      throw new OdError(
        "INVALID_REQUEST",
        `Port ${opts.port} on ${opts.host} is in use`,
        "Is od serve already running? Pick another --port (0 picks a free one).",
      );
    throw new OdError(
      "INVALID_REQUEST",
      `Cannot listen on ${opts.host}:${opts.port}: ${e?.message ?? e}`,
      "Check --host: it must be an address of this machine.",
    );
  }
  const home = odHome(env);
  let release = () => {};
  let setup: { token: string; tokenFile: string; recovered: Recovered; runs: Runs; targets: Targets };
  try {
    checkHome(home);
    const targets = loadTargets(home); // a bad targets.json stops it before it takes the home over
    release = claimHome(home);
    setup = takeOver(home, opts, { slots, targets }, env);
  } catch (err) {
    // Nothing half-started: the port is freed and the claim released.
    server.stop(true);
    release();
    // A system error on a file in OD_HOME (full, read-only, not a directory) is said as such, not as a bug.
    const path = (err as NodeJS.ErrnoException)?.path;
    throw typeof path === "string" && path.startsWith(home) ? storageError(err, `OD_HOME (${home})`) : err;
  }
  const { token, tokenFile, recovered, runs, targets } = setup;
  const name = opts.host.includes(":") && !opts.host.startsWith("[") ? `[${opts.host}]` : opts.host;
  const port = server.port;
  // Beyond loopback the server is reached by names od cannot know (its addresses, DNS names); the token guards it.
  const allowedHosts = LOOPBACK.has(opts.host) ? [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`] : "any";
  app = createApp({
    registry: opts.registry,
    runs,
    targets,
    token,
    tokenFile,
    allowedHosts,
    env,
    mcp: { policy: opts.mcp },
    page: opts.page,
  });

  return {
    url: `http://${name === "localhost" ? "127.0.0.1" : name}:${port}/`,
    token,
    tokenFile,
    recovered,
    runs,
    /** The cap on concurrent connections this server keeps. */
    maxConnections: guard.cap,
    async stop() {
      await runs.shutdown();
      server.stop(true);
      release();
    },
  };
}

/**
 * The home's token file (a fresh token unless one is configured), and its od: the run service on the
 * home's run log, with what a dead od left live (runs, compare runs, workspaces) ended first.
 */
function takeOver(home: string, opts: ServeOptions, limits: { slots: Slots; targets: Targets }, env: Record<string, string | undefined>) {
  const token = opts.token ?? Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("base64url");
  const tokenFile = join(home, "server-token");
  writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
  chmodSync(tokenFile, 0o600);
  const { runs } = odWith(opts.registry, { home, env, recording: "required", warn: opts.warn, slots: limits.slots });
  const recovered = runs.recover();
  return { token, tokenFile, recovered, runs, targets: limits.targets };
}
