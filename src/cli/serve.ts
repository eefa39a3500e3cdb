import { detectCached } from "../core/detect-cache.ts";
import { loadRegistry } from "../core/registry.ts";
import { startServer } from "../server/serve.ts";
import { odCommand } from "./command.ts";
import { execWithHeapBudget, SERVE_HEAP_BUDGET } from "./heap-budget.ts";
import { log } from "./log.ts";

export default odCommand({
  meta: { name: "serve", description: "Start the local server: web UI, JSON API and live run streams (SSE)" },
  args: {
    port: { type: "string", alias: "p", default: "7456", description: "Port (0 picks a free one)" },
    host: { type: "string", default: "127.0.0.1", description: "Address to bind; beyond loopback needs OD_SERVER_TOKEN" },
    "max-runs": { type: "string", default: "8", description: "Runs at once; more wait in a queue and say so" },
    open: { type: "boolean", description: "Open the UI in a browser" },
  },
  async run({ args }) {
    execWithHeapBudget(SERVE_HEAP_BUDGET);
    const registry = await loadRegistry();
    for (const e of registry.errors) log.warn(`plugin failed to load: ${e.path}: ${e.error}`);
    const server = startServer({
      host: args.host,
      port: Number(args.port),
      maxRuns: Number(args["max-runs"]),
      registry,
      token: process.env.OD_SERVER_TOKEN || undefined,
    });
    if (server.recovered.length) log.info(`${server.recovered.length} run(s) left live by a previous server were marked failed`);
    const launch = `${server.url}?token=${server.token}`;
    process.stdout.write(`od serve: ${launch}\n`);
    log.info(`token saved to ${server.tokenFile}; Ctrl-C stops the server and every run`);
    if (args.open) Bun.spawn([process.platform === "darwin" ? "open" : "xdg-open", launch], { stdio: ["ignore", "ignore", "ignore"] });
    let stopping = false;
    const stop = async () => {
      if (stopping) process.exit(130);
      stopping = true;
      log.info("stopping: cancelling runs…");
      await server.stop();
      process.exit(0);
    };
    process.on("SIGHUP", () => {
      log.info("SIGHUP: detecting agents again");
      detectCached(registry.list().map((e) => e.adapter), { refresh: true }).catch(() => {});
    });
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    await new Promise(() => {}); // serve until a signal
  },
});
