import { detectAll } from "../core/detect.ts";
import { loadRegistry } from "../core/registry.ts";
import { odCommand } from "./command.ts";
import { printJson, table } from "./table.ts";

export default odCommand({
  meta: { name: "agents", description: "List the agent adapters, whether each CLI is installed, and its version" },
  args: {
    json: { type: "boolean", description: "Print JSON for scripts" },
  },
  async run({ args }) {
    const registry = await loadRegistry();
    const found = await detectAll(registry.list().map((e) => e.adapter));
    if (args.json) return printJson(found);
    const rows = found.map((d) => [d.id, d.installed ? "installed" : "missing", d.version ?? "-", d.path ?? "-", d.installed ? "" : (d.problem?.hint ?? "")]);
    process.stdout.write(`${table(["agent", "status", "version", "path", "hint"], rows)}\n`);
  },
});
