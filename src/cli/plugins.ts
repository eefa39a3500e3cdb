import { loadRegistry } from "../builtins.ts";
import { pluginDirs } from "../core/os/paths.ts";
import { ABOUT } from "./about.ts";
import { odCommand } from "./command.ts";
import { stdout } from "./out.ts";
import { printJson, table } from "./table.ts";

export default odCommand({
  meta: { name: "plugins", description: ABOUT.plugins },
  args: {
    json: { type: "boolean", description: "Print JSON for scripts" },
  },
  async run({ args }) {
    const registry = await loadRegistry();
    const adapters = registry.list().map((e) => ({ id: e.adapter.id, name: e.adapter.name, source: e.source, replaced: e.replaced }));
    if (registry.errors.length) process.exitCode = 1;
    if (args.json) return printJson({ dirs: pluginDirs(), adapters, errors: registry.errors });
    const rows = adapters.map((a) => [a.id, a.name, a.source, a.replaced ? `replaces ${a.replaced}` : ""]);
    await stdout.write(`${table(["id", "name", "source", "note"], rows)}\n`);
    for (const e of registry.errors) process.stderr.write(`failed to load ${e.path}: ${e.error}\n`);
    process.stderr.write(`plugin dirs: ${pluginDirs().join(", ")}\n`);
  },
});
