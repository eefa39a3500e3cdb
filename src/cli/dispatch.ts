/**
 * Every command of od but `--version` (src/main.ts answers that alone): help however it is asked
 * for, and the command named. Each command is loaded when it runs, and `od --help` renders from the
 * one-line table in about.ts, so no command's code (a chunk of its own in the binary) is read for
 * the help. Commands are citty's definitions; running one takes od's reading of its argv (argv.ts),
 * not citty's runtime, whose `node:util` would cost every start ~6 ms: citty loads for help only.
 */
import type { ArgsDef, CommandDef } from "citty";
import { OdError } from "../core/contract/errors.ts";
import { VERSION } from "../core/os/version.ts";
import { ABOUT, type CommandName } from "./about.ts";
import { parseCommandArgs } from "./argv.ts";
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
/** `od` as its help shows it: each command only by its name and line (citty would load each to read them). */
export const listed: CommandDef<any> = {
  meta,
  subCommands: Object.fromEntries(Object.entries(ABOUT).map(([name, description]) => [name, { meta: { name, description } }])),
};

/**
 * Help as people ask for it (`od`, `od help [command]`, --help or -h anywhere), coloured only on a
 * terminal. A mistake in the arguments (an unknown command, a value outside an enum) is a usage
 * error like any of od's: one line on stderr, exit 2.
 */
export async function dispatch(rawArgs: string[]): Promise<void> {
  // The usage could not be written (a full disk under stdout): said like any error of od's.
  if (rawArgs.length === 0) process.exitCode = await noCommand(listed).catch(renderError);
  else if (rawArgs[0] === "help") process.exitCode = await help(listed, commands, rawArgs.slice(1)).catch(renderError);
  else if (rawArgs.some((a) => a === "--help" || a === "-h")) process.exitCode = await help(listed, commands, rawArgs).catch(renderError);
  else await runNamed(rawArgs);
}

/** The command named by the first word that is no option (none after a "--"), run on the words after it. */
async function runNamed(rawArgs: string[]): Promise<void> {
  const at = rawArgs.findIndex((a) => a === "--" || !a.startsWith("-"));
  const name = at === -1 || rawArgs[at] === "--" ? undefined : rawArgs[at]!;
  if (name === undefined || !Object.hasOwn(commands, name)) {
    const error =
      name === undefined ? new OdError("INVALID_REQUEST", "No command specified.", "See `od --help`.") : unknownCommand(name, commands);
    process.exitCode = renderError(error);
    return;
  }
  const cmd = await commands[name as CommandName]();
  const argv = rawArgs.slice(at + 1);
  let args: ReturnType<typeof parseCommandArgs>;
  try {
    args = parseCommandArgs(argv, cmd.args as ArgsDef, name);
  } catch (err) {
    process.exitCode = renderError(err);
    return;
  }
  await cmd.run?.({ rawArgs: argv, args: args as never, cmd });
}
