import { readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { loadRegistry } from "../builtins.ts";
import { writeRole } from "../core/agents/roles.ts";
import { OdError } from "../core/contract/errors.ts";
import { didYouMean } from "../core/os/suggest.ts";
import { ABOUT } from "./about.ts";
import { odCommand } from "./command.ts";
import { stdout } from "./out.ts";

export default odCommand({
  meta: { name: "init", description: ABOUT.init },
  args: {
    agent: { type: "string", alias: "a", required: true, description: "Adapter id" },
    role: { type: "string", required: true, description: "Role name (lowercase, dashes)", valueHint: "name" },
    "prompt-file": { type: "string", required: true, description: "A file with the role's instructions", valueHint: "file" },
    description: { type: "string", description: "One line on what the role is for" },
    cwd: { type: "string", description: "The project folder (default: here)", valueHint: "dir" },
    force: { type: "boolean", description: "Replace an existing definition of this role" },
  },
  async run({ args }) {
    const registry = await loadRegistry();
    const adapter = registry.get(args.agent)?.adapter;
    if (!adapter) {
      const guess = didYouMean(
        args.agent,
        registry.list().map((e) => e.adapter.id),
      );
      throw new OdError("AGENT_UNKNOWN", `No adapter named "${args.agent}"`, `${guess}See \`od agents\`.`);
    }
    let prompt: string;
    try {
      prompt = readFileSync(args["prompt-file"], "utf8");
    } catch (err) {
      throw new OdError("INVALID_REQUEST", `Cannot read ${args["prompt-file"]}: ${(err as Error).message}`);
    }
    if (!prompt.trim()) throw new OdError("INVALID_REQUEST", `${args["prompt-file"]} is empty`);
    const cwd = resolve(args.cwd ?? process.cwd());
    const { path, replaced } = writeRole(adapter, cwd, { name: args.role, description: args.description, prompt }, args.force);
    await stdout.write(
      `${replaced ? "replaced" : "wrote"} ${relative(cwd, path)}; use it with: od run --agent ${adapter.id} --role ${args.role} "<prompt>"\n`,
    );
  },
});
