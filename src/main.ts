#!/usr/bin/env bun
import { defineCommand, runMain } from "citty";
import { VERSION } from "./version.ts";

const load = <T>(p: Promise<{ default: T }>) => p.then((m) => m.default);

const main = defineCommand({
  meta: { name: "od", version: VERSION, description: "Drive the coding-agent CLIs you already have: one event stream, any agent." },
  subCommands: {
    run: () => load(import("./cli/run.ts")),
    agents: () => load(import("./cli/agents.ts")),
    models: () => load(import("./cli/models.ts")),
    doctor: () => load(import("./cli/doctor.ts")),
    init: () => load(import("./cli/init.ts")),
    plugins: () => load(import("./cli/plugins.ts")),
    skills: () => load(import("./cli/skills.ts")),
    serve: () => load(import("./cli/serve.ts")),
  },
});

// A plugin's timer or promise that throws later must not take a running agent down with it:
// report it, and let the run end with its one run.finished.
for (const event of ["uncaughtException", "unhandledRejection"] as const) {
  process.on(event, (err: unknown) => {
    const e = err instanceof Error ? (err.stack ?? err.message) : String(err);
    process.stderr.write(`od: ${event === "uncaughtException" ? "uncaught error" : "unhandled rejection"} (a plugin?): ${e}\n`);
  });
}

await runMain(main);
