/**
 * Fixture tables, the way ESLint's RuleTester runs rules: every
 * test/fixtures/<adapter>/<scenario>.jsonl (real CLI output, captured against
 * the model stub) is fed line by line through the adapter's driver, and what
 * comes out (events, messages sent back, whether the turn ended) must equal
 * <scenario>.golden.json. OD_UPDATE_FIXTURES=1 rewrites the goldens; review the diff.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadRegistry } from "../../src/builtins.ts";
import { driverFor } from "../../src/core/agents/driver-for.ts";
import type { Mode } from "../../src/core/contract/events.ts";
import { interpret } from "../../src/core/protocols/interpret.ts";
import { policyDecision, requestEvent, settledEvents } from "../../src/core/run/permissions.ts";
import { FIXTURES } from "../helpers.ts";

interface Golden {
  context: { mode: Mode };
  events: unknown[];
  sent: unknown[];
  done: boolean;
}

const registry = await loadRegistry([]);
const update = process.env.OD_UPDATE_FIXTURES === "1";

export function replay(adapterId: string, lines: string[], mode: Mode) {
  const adapter = registry.get(adapterId)!.adapter;
  const driver = driverFor(adapter);
  const { state, send } = driver.start({
    agent: { name: adapter.name, login: adapter.login },
    prompt: "Say hi",
    cwd: "/work/project",
    mode,
    // The adapter's driver options, as the pipeline passes them (an ACP agent's session mode per od mode).
    options: adapter.protocol.kind === "driver" ? adapter.protocol.options : undefined,
  });
  const out = { events: [] as unknown[], sent: [...send], done: false };
  for (const line of lines) {
    const step = interpret(driver, state, line);
    out.events.push(...step.events);
    out.sent.push(...(step.send ?? []));
    for (const ask of step.asks ?? []) {
      // What the pipeline does with nobody attached: the mode's policy decides.
      const settled = { ...policyDecision(ask, mode, "/work/project"), by: "policy" as const };
      out.events.push(requestEvent(ask), ...settledEvents(ask, settled));
      out.sent.push(...ask.reply(settled.decision));
    }
    if (step.done) out.done = true;
  }
  out.events.push(...(driver.finish?.(state) ?? []));
  return out;
}

for (const adapterId of readdirSync(FIXTURES).filter((d) => registry.get(d))) {
  describe(`${adapterId} fixtures`, () => {
    for (const file of readdirSync(join(FIXTURES, adapterId)).filter((f) => f.endsWith(".jsonl"))) {
      const scenario = file.slice(0, -".jsonl".length);
      test(scenario, () => {
        const goldenPath = join(FIXTURES, adapterId, `${scenario}.golden.json`);
        const previous: Golden | undefined = existsSync(goldenPath) ? JSON.parse(readFileSync(goldenPath, "utf8")) : undefined;
        const context = previous?.context ?? { mode: "edit" as Mode };
        // Lines as the pipeline frames them: a final newline ends the last line, it does not start another.
        const lines = readFileSync(join(FIXTURES, adapterId, file), "utf8")
          .replace(/\n$/, "")
          .split("\n");
        const got = { context, ...replay(adapterId, lines, context.mode) };
        if (update) writeFileSync(goldenPath, `${JSON.stringify(got, null, 2)}\n`);
        else if (!previous) throw new Error(`no golden for ${adapterId}/${scenario}: run with OD_UPDATE_FIXTURES=1 and review it`);
        expect(got).toEqual(update ? got : previous!);
      });
    }
  });
}
