#!/usr/bin/env bun
import { defineCommand, runCommand } from "citty";
import { stripAnsi } from "./cli/color.ts";
import { renderError } from "./cli/command.ts";
import { help, noCommand, type SubCommands, unknownCommand } from "./cli/usage.ts";
import { OdError } from "./core/contract/errors.ts";
import { VERSION } from "./core/os/version.ts";

const load = <T>(p: Promise<{ default: T }>) => p.then((m) => m.default);

const commands: SubCommands = {
  run: () => load(import("./cli/run.ts")),
  agents: () => load(import("./cli/agents.ts")),
  models: () => load(import("./cli/models.ts")),
  doctor: () => load(import("./cli/doctor.ts")),
  init: () => load(import("./cli/init.ts")),
  plugins: () => load(import("./cli/plugins.ts")),
  skills: () => load(import("./cli/skills.ts")),
  serve: () => load(import("./cli/serve.ts")),
  runs: () => load(import("./cli/runs.ts")),
  apply: () => load(import("./cli/apply.ts")),
  discard: () => load(import("./cli/discard.ts")),
  acp: () => load(import("./cli/acp.ts")),
  mcp: () => load(import("./cli/mcp.ts")),
};

const main = defineCommand({
  meta: { name: "od", version: VERSION, description: "Drive the coding-agent CLIs you already have: one event stream, any agent." },
  subCommands: commands,
});

// A plugin's timer or promise that throws later must not take a running agent down with it:
// report it, and let the run end with its one run.finished.
for (const event of ["uncaughtException", "unhandledRejection"] as const) {
  process.on(event, (err: unknown) => {
    const e = err instanceof Error ? (err.stack ?? err.message) : String(err);
    process.stderr.write(`od: ${event === "uncaughtException" ? "uncaught error" : "unhandled rejection"} (a plugin?): ${e}\n`);
  });
}

// Help as people ask for it (`od`, `od help [command]`, --help or -h anywhere), coloured only on a
// terminal; the version for --version or -v alone. A mistake citty finds in the arguments (an
// unknown command, a value outside an enum) is a usage error like od's own: one line on stderr, exit 2.
const rawArgs = process.argv.slice(2);
// Hidden, in no --help: the sentinel od starts for itself (src/core/os/sentinel.ts, SENTINEL_COMMAND).
if (rawArgs[0] === "__reap") await import("./core/os/sentinel.ts").then((m) => m.sentinelMain(rawArgs[1]));
else if (rawArgs.length === 1 && (rawArgs[0] === "--version" || rawArgs[0] === "-v")) {
  // The version first (scripts read the first word), then where this od was installed from.
  const { describeInstall, installLabel } = await import("./core/os/install.ts");
  process.stdout.write(`${VERSION} (${installLabel(describeInstall())})\n`);
} else if (rawArgs.length === 0) process.exitCode = await noCommand(main);
else if (rawArgs[0] === "help") process.exitCode = await help(main, commands, rawArgs.slice(1));
else if (rawArgs.some((a) => a === "--help" || a === "-h")) process.exitCode = await help(main, commands, rawArgs);
else
  try {
    await runCommand(main, { rawArgs });
  } catch (err) {
    if ((err as Error)?.name !== "CLIError") throw err;
    const sub = rawArgs.find((a) => !a.startsWith("-"));
    const known = sub !== undefined && Object.hasOwn(commands, sub);
    process.exitCode = renderError(
      (err as { code?: string }).code === "E_UNKNOWN_COMMAND" && sub !== undefined && !known
        ? unknownCommand(sub, commands)
        : new OdError("INVALID_REQUEST", stripAnsi((err as Error).message), `See \`od ${known ? `${sub} ` : ""}--help\`.`),
    );
  }
