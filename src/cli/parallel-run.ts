import { loadSkills } from "../builtins.ts";
import type { Registry } from "../core/agents/registry.ts";
import { OdError } from "../core/errors.ts";
import { type ParallelResult, parallel } from "../core/run/parallel.ts";
import type { RunRequest } from "../core/run/request.ts";
import { didYouMean } from "../core/suggest.ts";
import { createTextRenderer } from "./render.ts";
import { table } from "./table.ts";

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

/** `od run --agent a,b,c`: one prompt on several agents, streams labelled by agent, then a side-by-side table. */
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
  const sinkFor = (agent: string) => {
    let s = sinks.get(agent);
    if (!s) {
      const out = labelled(agent, process.stdout);
      const err = labelled(agent, process.stderr);
      s = { out, err, render: createTextRenderer(out, err, opts.color) };
      sinks.set(agent, s);
    }
    return s;
  };
  const results: ParallelResult[] = [];
  const shown = new Set<string>(); // errors the agent's own stream already showed
  for await (const item of parallel(
    agents.map((agent) => ({ ...base, agent })),
    { registry: opts.registry, signal: opts.signal, maxConcurrent: 4, retry: { attempts: opts.attempts }, skills: () => loadSkills() },
  )) {
    if ("result" in item) {
      results.push(item.result);
      const { error } = item.result;
      // A failure around the run (its workspace could not be made or read) is no event: say it here.
      if (!opts.json && error && !shown.has(`${item.agent}\0${error}`)) sinkFor(item.agent).err.write(`✗ ${error}\n`);
      sinkFor(item.agent).out.flush();
      sinkFor(item.agent).err.flush();
    } else if (opts.json) process.stdout.write(`${JSON.stringify(item.event)}\n`);
    else {
      if (item.event.type === "error") shown.add(`${item.agent}\0${item.event.message}`);
      sinkFor(item.agent).render(item.event);
    }
  }
  if (opts.json) process.stdout.write(`${JSON.stringify({ results })}\n`);
  else {
    const rows = results.map((r) => [
      r.agent,
      r.status,
      `${(r.durationMs / 1000).toFixed(1)}s`,
      r.inputTokens === undefined ? "-" : `${r.inputTokens}/${r.outputTokens ?? 0}`,
      r.costUsd === undefined ? "-" : `$${r.costUsd.toFixed(4)}`,
      r.files.length ? r.files.join(", ") : "-",
    ]);
    process.stdout.write(`\n${table(["agent", "status", "time", "tokens in/out", "cost", "files changed"], rows)}\n`);
    process.stderr.write("each agent ran in its own copy of the working directory; yours is unchanged\n");
  }
  if (opts.signal.aborted) return 130;
  return results.every((r) => r.status === "succeeded") ? 0 : 1;
}
