import { loadRegistry } from "../builtins.ts";
import { OdError } from "../core/contract/errors.ts";
import { onStopSignals, STOP_SIGNALS } from "../core/os/stop-signals.ts";
import { startServer } from "../server/serve.ts";
import { ABOUT } from "./about.ts";
import { odCommand } from "./command.ts";
import { execWithHeapBudget, SERVE_HEAP_BUDGET } from "./heap-budget.ts";
import { log } from "./log.ts";
import { mcpArgs, mcpPolicy } from "./mcp.ts";
import { applySandbox, sandboxArg } from "./sandbox.ts";

export default odCommand({
  meta: { name: "serve", description: ABOUT.serve },
  args: {
    port: { type: "string", alias: "p", default: "7456", description: "Port (0 picks a free one)" },
    host: { type: "string", default: "127.0.0.1", description: "Address to bind; beyond loopback needs OD_SERVER_TOKEN" },
    "max-runs": { type: "string", default: "8", description: "Runs at once; more wait in a queue and say so" },
    open: { type: "boolean", description: "Open the UI in a browser" },
    ...mcpArgs,
    ...sandboxArg,
  },
  async run({ args, rawArgs }) {
    const mcp = mcpPolicy(args, rawArgs); // a bad --root or --max-mode stops it before anything starts
    applySandbox(args);
    execWithHeapBudget(SERVE_HEAP_BUDGET);
    const registry = await loadRegistry();
    for (const e of registry.errors) log.warn(`plugin failed to load: ${e.path}: ${e.error}`);
    const server = startServer({
      host: args.host,
      port: whole("port", args.port),
      maxRuns: whole("max-runs", args["max-runs"]),
      registry,
      token: process.env.OD_SERVER_TOKEN || undefined,
      warn: (message) => log.warn(message),
      mcp,
    });
    const { recovered } = server;
    if (recovered.runs.length) log.info(`${recovered.runs.length} run(s) an od that stopped left live were marked failed`);
    if (recovered.groups.length) log.info(`${recovered.groups.length} compare run(s) an od that stopped left live were marked interrupted`);
    void recovered.workspaces.then((dirs) => dirs.length && log.info(`removed ${dirs.length} workspace(s) an od that stopped left behind`));
    const launch = `${server.url}?token=${server.token}`;
    process.stdout.write(`od serve: ${launch}\n`);
    log.info(`token saved to ${server.tokenFile}; Ctrl-C stops the server and every run`);
    log.info(`MCP at ${server.url}mcp (bearer token): runs at most ${mcp.maxMode}, under ${mcp.roots.join(", ")}`);
    if (args.open) openBrowser(launch);
    // Ctrl-C, a hangup (the terminal closed) and SIGTERM stop it the same way: every run cancelled
    // and finished, then exit 128 + the signal's number; a second signal leaves at once.
    let stopping = false;
    onStopSignals(async (signal) => {
      if (stopping) process.exit(STOP_SIGNALS[signal]);
      stopping = true;
      log.info(`${signal}: stopping: cancelling runs…`);
      await server.stop();
      process.exit(STOP_SIGNALS[signal]);
    });
    await new Promise(() => {}); // serve until a signal
  },
});

/** The system's way to open a URL; where there is none (a server with no desktop), the printed URL is the way. */
function openBrowser(url: string): void {
  const cmd =
    process.platform === "darwin"
      ? ["open", url]
      : process.platform === "win32"
        ? ["rundll32", "url.dll,FileProtocolHandler", url]
        : ["xdg-open", url];
  try {
    Bun.spawn(cmd, { stdio: ["ignore", "ignore", "ignore"] });
  } catch (err) {
    log.warn(`could not open a browser (${(err as Error).message}); open the URL above`);
  }
}

function whole(flag: string, text: string): number {
  if (!/^\d+$/.test(text.trim())) throw new OdError("INVALID_REQUEST", `--${flag} must be a whole number, not "${text}"`);
  return Number(text);
}
