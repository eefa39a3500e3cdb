/**
 * Every command of od but `--version` (src/main.ts answers that alone): help however it is asked
 * for, and the command named, through citty. Each command is loaded when it runs, and `od --help`
 * renders from the one-line table in about.ts, so no command's code (a chunk of its own in the
 * binary) is read for the help: `od help` costs citty and this file.
 */
import { type CommandDef, defineCommand, runCommand } from "citty";
import { OdError } from "../core/contract/errors.ts";
import { VERSION } from "../core/os/version.ts";
import { ABOUT, type CommandName } from "./about.ts";
import { stripAnsi } from "./color.ts";
import { renderError } from "./command.ts";
import { help, noCommand, type SubCommands, unknownCommand } from "./usage.ts";

const load = <T>(p: Promise<{ default: T }>) => p.then((m) => m.default);

/** The commands, each imported on demand; about.ts has a line for each (a test holds them equal). */
export const commands: Record<CommandName, SubCommands[string]> = {
  run: () => load(import("./run.ts")),
  agents: () => load(import("./agents.ts")),
  models: () => load(import("./models.ts")),
  doctor: () => load(import("./doctor.ts")),
  init: () => load(import("./init.ts")),
  plugins: () => load(import("./plugins.ts")),
  skills: () => load(import("./skills.ts")),
  serve: () => load(import("./serve.ts")),
  runs: () => load(import("./runs.ts")),
  apply: () => load(import("./apply.ts")),
  discard: () => load(import("./discard.ts")),
  acp: () => load(import("./acp.ts")),
  mcp: () => load(import("./mcp.ts")),
};

const meta = { name: "od", version: VERSION, description: "Drive the coding-agent CLIs you already have: one event stream, any agent." };
const main = defineCommand({ meta, subCommands: commands });
/** `od` as its help shows it: each command only by its name and line (citty would load each to read them). */
export const listed: CommandDef<any> = defineCommand({
  meta,
  subCommands: Object.fromEntries(Object.entries(ABOUT).map(([name, description]) => [name, { meta: { name, description } }])),
});

/**
 * Help as people ask for it (`od`, `od help [command]`, --help or -h anywhere), coloured only on a
 * terminal. A mistake citty finds in the arguments (an unknown command, a value outside an enum)
 * is a usage error like od's own: one line on stderr, exit 2.
 */
export async function dispatch(rawArgs: string[]): Promise<void> {
  // The usage could not be written (a full disk under stdout): said like any error of od's.
  if (rawArgs.length === 0) process.exitCode = await noCommand(listed).catch(renderError);
  else if (rawArgs[0] === "help") process.exitCode = await help(listed, commands, rawArgs.slice(1)).catch(renderError);
  else if (rawArgs.some((a) => a === "--help" || a === "-h")) process.exitCode = await help(listed, commands, rawArgs).catch(renderError);
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
}
