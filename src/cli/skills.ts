import { existsSync } from "node:fs";
import { loadSkills } from "../builtins.ts";
import { OdError } from "../core/contract/errors.ts";
import { ABOUT } from "./about.ts";
import { odCommand } from "./command.ts";
import { stdout } from "./out.ts";
import { printJson, table } from "./table.ts";

export default odCommand({
  meta: { name: "skills", description: ABOUT.skills },
  args: {
    json: { type: "boolean", description: "Print JSON for scripts" },
    "skills-dir": { type: "string", description: "Another folder of skills (shadows the others by name)" },
  },
  async run({ args }) {
    if (args["skills-dir"] && !existsSync(args["skills-dir"]))
      throw new OdError(
        "INVALID_REQUEST",
        `No such folder: ${args["skills-dir"]}`,
        "Pass --skills-dir a folder of skills (one SKILL.md per subfolder).",
      );
    const catalog = await loadSkills(args["skills-dir"] ? [args["skills-dir"]] : []);
    const skills = [...catalog.skills.values()].map((s) => ({ ...s.meta, source: s.source, files: Object.keys(s.files).sort() }));
    if (catalog.errors.length) process.exitCode = 1;
    if (args.json) return printJson({ skills, errors: catalog.errors });
    await stdout.write(
      `${table(
        ["skill", "description", "source"],
        skills.map((s) => [s.name, s.description, s.source]),
      )}\n`,
    );
    for (const e of catalog.errors) process.stderr.write(`broken skill ${e.path}: ${e.error}\n`);
  },
});
