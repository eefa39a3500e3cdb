import type { CommandDef } from "citty";
import { OdError } from "../core/contract/errors.ts";
import { didYouMean } from "../core/os/suggest.ts";
import { colorFor, stripAnsi } from "./color.ts";
import { renderError } from "./command.ts";
import { type Out, stderr, stdout } from "./out.ts";

type AnyCommand = CommandDef<any>;

/** The subcommand table of `od`, each loaded on demand. */
export type SubCommands = Record<string, () => Promise<AnyCommand>>;

/** citty's usage text for `cmd`, on `out`, coloured only when `out` takes colour (citty loads for help only: cli/argv.ts). */
export async function writeUsage(out: Out, cmd: AnyCommand, parent?: AnyCommand): Promise<void> {
  const { renderUsage } = await import("citty");
  const text = await renderUsage(cmd, parent);
  await out.write(`${colorFor(out) ? text : stripAnsi(text)}\n\n`);
}

/** The usage error for a command od does not have, with the closest one it does. */
export function unknownCommand(name: string, commands: SubCommands): OdError {
  const guess = didYouMean(name, Object.keys(commands), (c) => `\`od ${c}\``);
  return new OdError("INVALID_REQUEST", `Unknown command ${name}`, `${guess}See \`od --help\`.`);
}

/**
 * `od help [command]`, and `--help` or `-h` anywhere: the usage of the command named (the first
 * word that is no option), else od's own, on stdout; an unknown command is a usage error.
 */
export async function help(main: AnyCommand, commands: SubCommands, args: string[]): Promise<number> {
  const name = args.find((a) => !a.startsWith("-"));
  if (name === undefined) {
    await writeUsage(stdout, main);
    return 0;
  }
  if (!Object.hasOwn(commands, name)) return renderError(unknownCommand(name, commands));
  await writeUsage(stdout, await commands[name]!(), main);
  return 0;
}

/**
 * `od` alone: someone at a terminal wants to know what od does (the usage, exit 0); a script
 * that runs it so was written wrong (the usage on stderr, stdout left empty, exit 2).
 */
export async function noCommand(main: AnyCommand): Promise<number> {
  if (stdout.isTTY) {
    await writeUsage(stdout, main);
    return 0;
  }
  await writeUsage(stderr, main);
  return renderError(new OdError("INVALID_REQUEST", "No command given"));
}
