import { loadRegistry } from "../builtins.ts";
import { listModels } from "../core/agents/models.ts";
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
    // The same object `GET /api/agents/:id/models` answers.
    const result = { agent: args.agent, ...(await listModels(registry, args.agent, { refresh: args.refresh })) };
    if (args.json) return printJson(result);
    process.stdout.write(
      `${table(
        ["model", "efforts"],
        result.models.map((m) => [m, result.efforts.join(", ") || "-"]),
      )}\n`,
    );
    const bin = registry.get(args.agent)?.adapter.bin;
    process.stderr.write(
      `"default" passes no model flag; models from ${result.source === "catalog" ? `\`${bin}\`'s own catalog` : result.source === "aliases" ? "the documented aliases" : "nowhere (type a model id)"}\n`,
    );
  },
});
