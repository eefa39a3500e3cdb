import { loadRegistry } from "../builtins.ts";
import { onStopSignals, STOP_SIGNALS } from "../core/os/stop-signals.ts";
import { boundedStdin } from "../core/protocols/bounded-lines.ts";
import { parseMaxMode, resolveRoots } from "../mcp/roots.ts";
import { createOd } from "../od.ts";
import { ABOUT } from "./about.ts";
import { odCommand } from "./command.ts";
import { log } from "./log.ts";
import { repeated } from "./run-args.ts";
import { applySandbox, sandboxArg } from "./sandbox.ts";

const MAX_RUNS = 8;

/** The flags `od mcp` and `od serve` share: how much a caller of od's MCP tools may ask for. */
export const mcpArgs = {
  "max-mode": {
    type: "string",
    default: "read-only",
    description: "The widest mode an MCP run_agent call may ask for (read-only, edit, full)",
    valueHint: "mode",
  },
  root: { type: "string", description: "A folder MCP runs may work in (repeatable; default: here)", valueHint: "dir" },
} as const;

/** The MCP policy from those flags: --max-mode checked, every --root resolved to a real, existing folder. */
export function mcpPolicy(args: { "max-mode"?: string }, rawArgs: string[]) {
  return { maxMode: parseMaxMode(args["max-mode"]), roots: resolveRoots(repeated(rawArgs, "root", "R")) };
}

export default odCommand({
  meta: { name: "mcp", description: ABOUT.mcp },
  args: { ...mcpArgs, ...sandboxArg },
  async run({ args, rawArgs }) {
    const policy = mcpPolicy(args, rawArgs);
    applySandbox(args);
    // The SDK is loaded here, not at import: `od serve` imports this file for its flags.
    const [{ createMcpServer }, { StdioServerTransport }] = await Promise.all([
      import("../mcp/server.ts"),
      import("@modelcontextprotocol/sdk/server/stdio.js"),
    ]);
    const registry = await loadRegistry();
    for (const e of registry.errors) log.warn(`plugin failed to load: ${e.path}: ${e.error}`);
    // As many agents at once as `od serve` runs by default; a caller's further run_agent calls wait their turn, and say so.
    const od = await createOd({ registry, recording: "best-effort", maxRuns: MAX_RUNS, warn: (m) => log.warn(m) });
    const server = createMcpServer({ registry, policy, runs: od.runs });
    // stdout is the protocol: everything else goes to stderr.
    log.info(`od mcp: on stdio; runs at most ${policy.maxMode}, under ${policy.roots.join(", ")}`);
    // Each line bounded before the SDK reads it: one over the limit is answered with an error and skipped.
    const input = boundedStdin((message) => log.warn(message));
    await server.connect(new StdioServerTransport(input));
    // The client closing stdin ends the server, as a stop signal does: every live run cancelled and
    // finished (its agent's process group stopped), then exit; a second signal leaves at once.
    const code = await new Promise<number>((resolve) => {
      input.once("end", () => resolve(0));
      input.once("close", () => resolve(0));
      onStopSignals((signal, count) => (count > 1 ? process.exit(STOP_SIGNALS[signal]) : resolve(STOP_SIGNALS[signal])));
    });
    await od.runs.shutdown();
    await server.close();
    process.exit(code);
  },
});
