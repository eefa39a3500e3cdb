import { resolve } from "node:path";
import { resolveGroupId } from "../core/runs/history.ts";
import { applyResult, runsDirOf } from "../core/workspace/apply.ts";
import { ABOUT } from "./about.ts";
import { appliedText } from "./applied.ts";
import { odCommand } from "./command.ts";
import { stdout } from "./out.ts";
import { runLog } from "./record.ts";

/**
 * `od apply <groupId> [<label>]`: one compare run member's result into your working tree, as
 * `git apply` does (no commit, the index untouched). Refused, with nothing changed, when it
 * does not apply cleanly: exit 2.
 */
export default odCommand({
  meta: { name: "apply", description: ABOUT.apply },
  args: {
    group: {
      type: "positional",
      required: true,
      description: "The compare run's id, or its start as `od runs` prints it (printed at the end of the run)",
      valueHint: "id",
    },
    label: { type: "positional", required: false, description: "Which run's result (e.g. pi, pi#2); optional when only one changed files" },
    cwd: { type: "string", description: "Apply in this folder (default: where the compare run ran)", valueHint: "dir" },
    json: { type: "boolean", description: "Print what was applied as one JSON object" },
  },
  async run({ args }) {
    const groupId = resolveGroupId(runLog(), args.group);
    const applied = await applyResult(runsDirOf(), groupId, args.label, args.cwd === undefined ? undefined : resolve(args.cwd));
    if (args.json) return stdout.write(`${JSON.stringify({ type: "compare.applied", ...applied })}\n`);
    const { out, advice } = appliedText(applied);
    await stdout.write(`${out}\n`);
    process.stderr.write(`${advice}\n`);
  },
});
