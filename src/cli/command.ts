import type { ArgsDef, CommandDef } from "citty";
import { exitCodeFor, OdError } from "../core/contract/errors.ts";
import { didYouMean } from "../core/os/suggest.ts";
import { camel } from "./argv.ts";
import { colorFor } from "./color.ts";

/** Prints an error once, in one format, and returns the exit code it maps to. */
export function renderError(err: unknown): number {
  const e = OdError.from(err);
  const color = colorFor(process.stderr);
  const red = (s: string) => (color ? `\x1b[31m${s}\x1b[0m` : s);
  const dim = (s: string) => (color ? `\x1b[2m${s}\x1b[0m` : s);
  process.stderr.write(`${red(`od: ${e.message}`)} ${dim(`[${e.code}]`)}\n`);
  if (e.hint) process.stderr.write(`${dim("hint:")} ${e.hint}\n`);
  if (e.code === "INTERNAL" && e.cause instanceof Error && e.cause.stack) process.stderr.write(`${dim(e.cause.stack)}\n`);
  return exitCodeFor(e.code);
}

/**
 * A command as citty defines it (its defineCommand is this identity; importing citty would load
 * `node:util`: cli/argv.ts), with od's one error renderer around the body (no stack traces for
 * users), and no unknown option let through: citty would take `--modle opus` as nothing and
 * `opus` as part of the prompt.
 */
export function odCommand<const T extends ArgsDef>(def: CommandDef<T>): CommandDef<T> {
  const run = def.run;
  return {
    ...def,
    run: run
      ? async (ctx) => {
          try {
            const args = (def.args ?? {}) as ArgsDef;
            const unknown = unknownOption(ctx.rawArgs, args);
            if (unknown) {
              // A long option misspelt gets the closest one this command has; -x is too short to guess from.
              const longNames = Object.keys(args).filter((name) => args[name]!.type !== "positional");
              const guess = unknown.startsWith("--") ? didYouMean(unknown.slice(2), longNames, (n) => `--${n}`) : "";
              throw new OdError(
                "INVALID_REQUEST",
                `Unknown option ${unknown}`,
                `${guess}See \`od ${(def.meta as { name?: string } | undefined)?.name ?? ""} --help\`.`,
              );
            }
            return await run(ctx);
          } catch (err) {
            process.exitCode = renderError(err);
          }
        }
      : undefined,
  };
}

/** The first option in `rawArgs` (before a "--") that `args` does not define, if any. */
export function unknownOption(rawArgs: string[], args: ArgsDef): string | undefined {
  const known = new Set(["help", "h"]);
  for (const [name, def] of Object.entries(args)) {
    // Each spelling citty accepts: the name, its camelCase (--dry-run, --dryRun), its aliases, and --no-<any> for a boolean.
    const names = [name, camel(name), ...([] as string[]).concat((def as { alias?: string | string[] }).alias ?? [])];
    for (const n of names) {
      known.add(n);
      if (def.type === "boolean") known.add(`no-${n}`);
    }
  }
  for (const token of rawArgs) {
    if (token === "--") return undefined;
    // An option looks like --name[=value] or -x; "-" alone (stdin), numbers and prose are values.
    const m = /^--?([A-Za-z][\w-]*)(=.*)?$/.exec(token);
    if (m && !known.has(m[1]!) && (token.startsWith("--") || m[1]!.length === 1)) return token.split("=")[0];
  }
  return undefined;
}
