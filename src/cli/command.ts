import { type ArgsDef, type CommandDef, defineCommand } from "citty";
import { exitCodeFor, OdError } from "../core/errors.ts";

/** Prints an error once, in one format, and returns the exit code it maps to. */
export function renderError(err: unknown): number {
  const e = OdError.from(err);
  const color = process.stderr.isTTY && !process.env.NO_COLOR;
  const red = (s: string) => (color ? `\x1b[31m${s}\x1b[0m` : s);
  const dim = (s: string) => (color ? `\x1b[2m${s}\x1b[0m` : s);
  process.stderr.write(`${red(`od: ${e.message}`)} ${dim(`[${e.code}]`)}\n`);
  if (e.hint) process.stderr.write(`${dim("hint:")} ${e.hint}\n`);
  if (e.code === "INTERNAL" && e.cause instanceof Error && e.cause.stack) process.stderr.write(`${dim(e.cause.stack)}\n`);
  return exitCodeFor(e.code);
}

/** citty's defineCommand, with od's one error renderer around the body: no stack traces for users. */
export function odCommand<const T extends ArgsDef>(def: CommandDef<T>): CommandDef<T> {
  const run = def.run;
  return defineCommand({
    ...def,
    run: run
      ? async (ctx) => {
          try {
            return await run(ctx);
          } catch (err) {
            process.exitCode = renderError(err);
          }
        }
      : undefined,
  });
}
