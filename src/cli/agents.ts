import { loadRegistry } from "../builtins.ts";
import { detectCached } from "../core/agents/detect-cache.ts";
import { odCommand } from "./command.ts";
import { printJson, table } from "./table.ts";

export const refreshArg = { refresh: { type: "boolean", description: "Probe again instead of using the 24 h cache" } } as const;

export default odCommand({
  meta: { name: "agents", description: "Which agent CLIs are installed, working and logged in" },
  args: {
    json: { type: "boolean", description: "Print JSON for scripts" },
    ...refreshArg,
  },
  async run({ args }) {
    const registry = await loadRegistry();
    const adapters = registry.list().map((e) => e.adapter);
    if (process.stderr.isTTY) process.stderr.write(`probing ${adapters.length} agents…\r`);
    const { detections } = await detectCached(adapters, { refresh: args.refresh });
    if (process.stderr.isTTY) process.stderr.write("\x1b[2K");
    if (args.json) return printJson(detections);
    const rows = detections.map((d) => [
      d.id,
      d.status,
      d.version ?? (d.installed ? "unverified" : "-"),
      d.path ?? "-",
      d.installed ? d.auth : "-",
      d.models.length ? `${d.models.length} (${d.modelSource})` : "-",
    ]);
    process.stdout.write(`${table(["agent", "status", "version", "path", "auth", "models"], rows)}\n`);
    for (const d of detections)
      for (const p of d.problems)
        if (d.status !== "missing") process.stderr.write(`${d.id}: ${p.message}${p.hint ? ` — ${p.hint}` : ""}\n`);
  },
});
