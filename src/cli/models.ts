import { detectCached } from "../core/detect-cache.ts";
import { OdError } from "../core/errors.ts";
import { loadRegistry } from "../core/registry.ts";
import { refreshArg } from "./agents.ts";
import { odCommand } from "./command.ts";
import { printJson, table } from "./table.ts";

export default odCommand({
  meta: { name: "models", description: "The models an agent offers, and its effort levels" },
  args: {
    agent: { type: "string", alias: "a", required: true, description: "Adapter id" },
    json: { type: "boolean", description: "Print JSON for scripts" },
    ...refreshArg,
  },
  async run({ args }) {
    const registry = await loadRegistry();
    const adapter = registry.get(args.agent)?.adapter;
    if (!adapter) throw new OdError("AGENT_UNKNOWN", `No adapter named "${args.agent}"`, `Known agents: ${registry.list().map((e) => e.adapter.id).join(", ")}.`);
    const [d] = (await detectCached([adapter], { refresh: args.refresh })).detections;
    const result = { agent: adapter.id, models: ["default", ...d!.models], source: d!.modelSource, efforts: d!.efforts };
    if (args.json) return printJson(result);
    process.stdout.write(`${table(["model", "efforts"], result.models.map((m) => [m, result.efforts.join(", ") || "-"]))}\n`);
    process.stderr.write(`"default" passes no model flag; models from ${result.source === "catalog" ? `\`${adapter.bin}\`'s own catalog` : result.source === "aliases" ? "the documented aliases" : "nowhere (type a model id)"}\n`);
  },
});
