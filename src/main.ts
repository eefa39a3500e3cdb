#!/usr/bin/env bun
import { defineCommand, runMain } from "citty";
import { VERSION } from "./version.ts";

const load = <T>(p: Promise<{ default: T }>) => p.then((m) => m.default);

const main = defineCommand({
  meta: { name: "od", version: VERSION, description: "Drive the coding-agent CLIs you already have: one event stream, any agent." },
  subCommands: {
    run: () => load(import("./cli/run.ts")),
    agents: () => load(import("./cli/agents.ts")),
    plugins: () => load(import("./cli/plugins.ts")),
  },
});

runMain(main);
