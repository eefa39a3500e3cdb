import { resolve } from "node:path";
import { resolveGroupId } from "../core/runs/history.ts";
import { discardGroup, runsDirOf } from "../core/workspace/apply.ts";
import { ABOUT } from "./about.ts";
import { odCommand } from "./command.ts";
import { log } from "./log.ts";
import { stdout } from "./out.ts";
import { runLog } from "./record.ts";

/** `od discard <groupId>`: removes a compare run's kept results (its branches `od/<groupId>/*` and patches). */
export default odCommand({
  meta: { name: "discard", description: ABOUT.discard },
  args: {
    group: {
      type: "positional",
      required: true,
      description: "The compare run's id, or its start as `od runs` prints it",
      valueHint: "id",
    },
    cwd: { type: "string", description: "The repository holding the branches (default: where the compare run ran)", valueHint: "dir" },
    json: { type: "boolean", description: "Print what was removed as one JSON object" },
  },
  async run({ args }) {
    const d = await discardGroup(runsDirOf(), resolveGroupId(runLog(), args.group), args.cwd === undefined ? undefined : resolve(args.cwd));
    if (args.json) await stdout.write(`${JSON.stringify({ type: "compare.discarded", ...d })}\n`);
    else {
      const lines = [...d.branches.map((b) => `removed branch ${b}`), ...d.patches.map((p) => `removed patch ${p}`)];
      await stdout.write(`${lines.length ? lines.join("\n") : `compare run ${d.groupId} had no kept results left`}\n`);
    }
    for (const note of d.notes) log.warn(note);
    if (d.notes.length) process.exitCode = 1;
  },
});
