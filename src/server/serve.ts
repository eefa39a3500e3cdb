import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { OdError } from "../core/errors.ts";
import { odHome } from "../core/paths.ts";
import type { Registry } from "../core/registry.ts";
import { RunLog } from "../core/run-log.ts";
import { Slots } from "../core/slots.ts";
import { createApp } from "./app.ts";
import { RunStore } from "./runs.ts";

export interface ServeOptions {
  host: string;
  port: number;
  maxRuns: number;
  registry: Registry;
  /** A fixed token (required for a non-loopback host); else a random one per launch. */
  token?: string;
  env?: Record<string, string | undefined>;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/** Starts the server: recovers runs a dead server left live, listens, and returns how to stop it. */
export function startServer(opts: ServeOptions) {
  const env = opts.env ?? process.env;
  if (!LOOPBACK.has(opts.host) && !opts.token)
    throw new OdError("INVALID_REQUEST", `Refusing to listen on ${opts.host} without a configured token`, "Set OD_SERVER_TOKEN (or --token) to listen beyond loopback; anyone who can reach the port can run agents.");
  const home = odHome(env);
  mkdirSync(home, { recursive: true });
  const token = opts.token ?? Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("base64url");
  const tokenFile = join(home, "server-token");
  writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
  chmodSync(tokenFile, 0o600);

  const log = new RunLog(join(home, "runs"));
  const recovered = log.recover();
  const runs = new RunStore({ registry: opts.registry, log, slots: new Slots(opts.maxRuns), env });
  let app: ReturnType<typeof createApp> | undefined;
  const server = Bun.serve({
    hostname: opts.host,
    port: opts.port,
    idleTimeout: 0, // SSE streams stay open; heartbeats keep proxies honest
    fetch: (req, srv) => app!.fetch(req, { server: srv }),
  });
  const name = opts.host.includes(":") && !opts.host.startsWith("[") ? `[${opts.host}]` : opts.host;
  const port = server.port;
  const allowedHosts = LOOPBACK.has(opts.host) ? [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`] : [`${name}:${port}`];
  app = createApp({ registry: opts.registry, runs, token, allowedHosts, env });

  return {
    url: `http://${name === "localhost" ? "127.0.0.1" : name}:${port}/`,
    token,
    tokenFile,
    recovered,
    runs,
    async stop() {
      await runs.shutdown();
      server.stop(true);
    },
  };
}
