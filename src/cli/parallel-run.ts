import { resolve } from "node:path";
import type { Registry } from "../core/agents/registry.ts";
import { OdError } from "../core/contract/errors.ts";
import type { RunRequest } from "../core/contract/request.ts";
import { didYouMean } from "../core/os/suggest.ts";
import { createOd } from "../od.ts";
import { compareTable } from "./compare-table.ts";
import { log } from "./log.ts";
import { createTextRenderer } from "./render.ts";

/** Writes whole lines, each prefixed with the agent's label. */
function labelled(label: string, sink: { write(s: string): unknown }) {
  let pending = "";
  return {
    write(text: string) {
      pending += text;
      const lines = pending.split("\n");
      pending = lines.pop()!;
      for (const line of lines) sink.write(`[${label}] ${line}\n`);
    },
    flush() {
      if (pending) sink.write(`[${label}] ${pending}\n`);
      pending = "";
    },
  };
}

/**
 * `od run --agent a,b,c` (or `--repeat N`): a compare run. One prompt on several agents (or one agent
 * several times), streams labelled by run, each result kept (a branch `od/<groupId>/<label>`, or a
 * patch outside git) and recorded in `<runs>/<groupId>/group.json`, then a side-by-side table.
 */
export async function runParallel(
  agents: string[],
  base: Omit<RunRequest, "agent">,
  opts: { registry: Registry; json: boolean; signal: AbortSignal; color: boolean; attempts: number },
): Promise<number> {
  const known = opts.registry.list().map((e) => e.adapter.id);
  for (const a of agents)
    if (!opts.registry.get(a)) throw new OdError("AGENT_UNKNOWN", `No adapter named "${a}"`, `${didYouMean(a, known)}See \`od agents\`.`);
  const sinks = new Map<
    string,
    { out: ReturnType<typeof labelled>; err: ReturnType<typeof labelled>; render: ReturnType<typeof createTextRenderer> }
  >();
  // Keyed by label, not agent: `--agent pi,pi` is two runs with two sessions.
  const sinkFor = (label: string) => {
    let s = sinks.get(label);
    if (!s) {
      const out = labelled(label, process.stdout);
      const err = labelled(label, process.stderr);
      s = { out, err, render: createTextRenderer(out, err, opts.color) };
      sinks.set(label, s);
    }
    return s;
  };
  const shown = new Set<string>(); // errors the run's own stream already showed
  // A compare run of od's run service: each member a recorded run, the group in group.json as it goes.
  const od = await createOd({ registry: opts.registry, recording: "best-effort", warn: (message) => log.warn(message), maxRuns: 4 });
  const cwd = resolve(base.cwd ?? process.cwd());
  const compare = od.runs.compare({ ...base, cwd }, agents, { origin: "cli", signal: opts.signal, retry: { attempts: opts.attempts } });
  for await (const item of compare.items()) {
    if ("result" in item) {
      const { error } = item.result;
      // A failure around the run (its workspace could not be made or read, the run refused) is no event: say it here.
      if (!opts.json && error && !shown.has(`${item.label}\0${error}`)) sinkFor(item.label).err.write(`✗ ${error}\n`);
      sinkFor(item.label).out.flush();
      sinkFor(item.label).err.flush();
    } else if (opts.json) process.stdout.write(`${JSON.stringify(item.event)}\n`);
    else {
      if (item.event.type === "error") shown.add(`${item.label}\0${item.event.message}`);
      sinkFor(item.label).render(item.event);
    }
  }
  const { group, results, recorded } = await compare.done;
  const { id: groupId, base: start } = group;
  if (opts.json)
    process.stdout.write(`${JSON.stringify({ type: "compare.result", groupId, base: start, members: group.members, results })}\n`);
  else {
    process.stdout.write(`\n${compareTable(group, recorded)}\n`);
    process.stderr.write("each agent ran in its own copy of the working directory; yours is unchanged\n");
  }
  if (opts.signal.aborted) return 130;
  return results.every((r) => r.status === "succeeded") ? 0 : 1;
}
