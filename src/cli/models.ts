import { loadRegistry } from "../builtins.ts";
import { listModels, type ModelList } from "../core/agents/models.ts";
import { ABOUT } from "./about.ts";
import { refreshArg } from "./agents.ts";
import { odCommand } from "./command.ts";
import { stdout } from "./out.ts";
import { printJson, table } from "./table.ts";

export default odCommand({
  meta: { name: "models", description: ABOUT.models },
  args: {
    agent: { type: "string", alias: "a", required: true, description: "Adapter id" },
    json: { type: "boolean", description: "Print JSON for scripts" },
    ...refreshArg,
  },
  async run({ args }) {
    const registry = await loadRegistry();
    // The same object `GET /api/agents/:id/models` answers.
    const result = { agent: args.agent, ...(await listModels(registry, args.agent, { refresh: args.refresh, strict: true })) };
    if (args.json) return printJson(result);
    const efforts = result.efforts.join(", ") || "-";
    const named = result.names && Object.keys(result.names).length > 0;
    await stdout.write(
      `${table(
        named ? ["model", "name", "efforts"] : ["model", "efforts"],
        result.models.map((m) => (named ? [m, result.names?.[m] ?? "", efforts] : [m, efforts])),
      )}\n`,
    );
    if (result.modes?.length) process.stderr.write(`modes: ${result.modes.join(", ")}\n`);
    process.stderr.write(`"default" passes no model flag; ${origin(result, registry.get(args.agent)?.adapter.bin)}\n`);
  },
});

/** Where the list came from, and what `od run` does with a model outside it. */
function origin(result: ModelList, bin: string | undefined): string {
  if (result.source === "aliases") return "models from the documented aliases (other ids are passed on)";
  if (result.source !== "catalog") return "models from nowhere (type a model id)";
  const from = result.from ?? `\`${bin}\`'s own catalog`;
  return result.exhaustive
    ? `models from ${from}, all the agent accepts: \`od run\` refuses others`
    : `models from ${from}, a hint: other ids are passed on`;
}
