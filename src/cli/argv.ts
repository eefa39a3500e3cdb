/**
 * A command's arguments read from its argv exactly as citty reads them, without loading citty: its
 * parser is Node's `util.parseArgs`, and `node:util` costs a compiled od ~6 ms to load, a third of
 * a Bun hello-world's whole start (docs/benchmarks.md, startup). Here are the two steps citty takes:
 * Node's tokenizer (strict: false, positionals allowed) over the options citty derives from the
 * definitions, then citty's own pass (--no-x, aliases, every spelling of a name, positionals,
 * enums, required). test/cli/argv.test.ts holds the answers equal to citty's `parseArgs` over a
 * table of argvs and od's own commands. citty still defines the commands and renders their help.
 */
import type { ArgsDef } from "citty";
import { OdError } from "../core/contract/errors.ts";

export type Parsed = Record<string, unknown> & { _: string[] };
type Option = { type: "boolean" | "string"; short?: string; default?: unknown };
type ArgDef = ArgsDef[string] & { alias?: string | string[]; options?: string[]; default?: unknown; required?: boolean };

const lower = (c: string) => c >= "a" && c <= "z";
const digit = (c: string) => c >= "0" && c <= "9";
const upper = (c: string) => c >= "A" && c <= "Z";

/**
 * A name's camelCase ("max-turns": "maxTurns") and kebab-case ("maxTurns": "max-turns"), the
 * spellings citty accepts. Walked by hand, as is the rest of this file: it runs at every start,
 * and a process's first regular expression that ignores case, or first String#replace with a
 * function, costs it ~0.5-1 ms.
 */
export function camel(name: string): string {
  let out = "";
  for (let i = 0; i < name.length; i++) {
    const next = name[i + 1];
    out += name[i] === "-" && next !== undefined && (lower(next) || upper(next) || digit(next)) ? name[++i]!.toUpperCase() : name[i];
  }
  return out;
}

export function kebab(name: string): string {
  let out = "";
  for (let i = 0; i < name.length; i++) {
    const c = name[i]!;
    out += i > 0 && upper(c) && (lower(name[i - 1]!) || digit(name[i - 1]!)) ? `-${c}` : c;
  }
  return out.toLowerCase();
}

const usage = (message: string, command?: string) =>
  new OdError("INVALID_REQUEST", message, `See \`od ${command ? `${command} ` : ""}--help\`.`);

/** `rawArgs` (the words after the command's name) read against the command's definitions. */
export function parseCommandArgs(rawArgs: string[], defs: ArgsDef = {}, command?: string): Parsed {
  const strings = new Set<string>();
  const booleans = new Set<string>();
  const defaults = new Map<string, unknown>();
  const aliases = new Map<string, string[]>(); // a name and every other spelling of it
  for (const [name, def] of Object.entries(defs) as Array<[string, ArgDef]>) {
    if (def.type === "positional") continue;
    (def.type === "boolean" ? booleans : def.type === "string" || def.type === "enum" ? strings : new Set()).add(name);
    if (def.default !== undefined) defaults.set(name, def.default);
    const names = ([] as string[]).concat(def.alias ?? []);
    for (const spelling of [camel(name), kebab(name)]) if (spelling !== name && !names.includes(spelling)) names.push(spelling);
    if (names.length) aliases.set(name, names);
  }
  // citty's alias table, both ways (a later alias of a name overwrites an earlier one, as in citty).
  const toMain = new Map<string, string>();
  const others = new Map<string, string[]>();
  const link = (from: string, to: string) => {
    toMain.set(from, to);
    others.set(from, [...(others.get(from) ?? []), to]);
  };
  for (const [name, spellings] of aliases)
    for (const spelling of spellings) {
      link(name, spelling);
      link(spelling, name);
    }
  const isA = (set: Set<string>, name: string) => {
    if (set.has(name)) return true;
    for (const other of others.get(name) ?? []) if (set.has(other)) return true;
    return false;
  };
  const options = new Map<string, Option>();
  for (const name of [...booleans, ...strings, ...aliases.keys(), ...[...aliases.values()].flat(), ...defaults.keys()])
    if (!options.has(name)) options.set(name, { type: isA(booleans, name) ? "boolean" : "string", default: defaults.get(name) });
  for (const [alias, main] of toMain) {
    const option = options.get(main);
    if (alias.length === 1 && option && !option.short) option.short = alias;
  }

  const negated: string[] = [];
  const words: string[] = [];
  for (let i = 0; i < rawArgs.length; i++) {
    const arg = rawArgs[i]!;
    if (arg === "--") {
      words.push(...rawArgs.slice(i));
      break;
    }
    if (arg.startsWith("--no-")) negated.push(arg.slice(5));
    else words.push(arg);
  }
  const { values, positionals } = tokenize(words, options);

  const out: Parsed = { _: positionals };
  for (const [key, value] of Object.entries(values))
    out[key] = isA(booleans, key) && typeof value === "string" ? value !== "false" : isA(strings, key) && value === true ? "" : value;
  for (const name of negated) {
    out[name] = false;
    const main = toMain.get(name);
    if (main) out[main] = false;
    for (const alias of others.get(name) ?? []) out[alias] = false;
  }
  for (const [alias, main] of toMain) {
    if (out[alias] !== undefined && out[main] === undefined) out[main] = out[alias];
    if (out[main] !== undefined && out[alias] === undefined) out[alias] = out[main];
    if (out[alias] !== out[main] && defaults.get(main) === out[main]) out[main] = out[alias];
  }

  const rest = [...positionals];
  for (const [name, def] of Object.entries(defs) as Array<[string, ArgDef]>) {
    const given = out[name] ?? out[camel(name)] ?? out[kebab(name)];
    if (def.type === "positional") {
      const next = rest.shift();
      if (next !== undefined) out[name] = next;
      else if (def.default === undefined && def.required !== false)
        throw usage(`Missing required positional argument: ${name.toUpperCase()}`, command);
      else out[name] = def.default;
    } else if (def.type === "enum") {
      const allowed = def.options ?? [];
      if (given !== undefined && allowed.length > 0 && !allowed.includes(given as string))
        throw usage(`Invalid value for argument: --${name} (${given}). Expected one of: ${allowed.join(", ")}.`, command);
    } else if (def.required && given === undefined) throw usage(`Missing required argument: --${name}`, command);
  }
  return out;
}

/** Node's util.parseArgs with strict: false and positionals allowed, over citty's options. */
function tokenize(args: string[], options: Map<string, Option>) {
  const values: Record<string, unknown> = {};
  const positionals: string[] = [];
  const longOf = (short: string) => {
    for (const [name, o] of options) if (o.short === short) return name;
    return short;
  };
  const isString = (name: string) => options.get(name)?.type === "string";
  const store = (name: string, value: string | undefined) => {
    if (name !== "__proto__") values[name] = value ?? true;
  };
  const queue = [...args];
  while (queue.length) {
    const arg = queue.shift()!;
    if (arg === "--") {
      positionals.push(...queue);
      break;
    }
    const short = arg.length >= 2 && arg[0] === "-" && arg[1] !== "-";
    if (short && arg.length === 2) {
      // -x, its value the next word when x takes one
      const name = longOf(arg[1]!);
      store(name, isString(name) && queue.length ? queue.shift() : undefined);
    } else if (short && !isString(longOf(arg[1]!))) {
      // -abc: each its own, up to the first that takes a value, which takes the rest (-abfFILE)
      const expanded: string[] = [];
      for (let i = 1; i < arg.length; i++) {
        if (!isString(longOf(arg[i]!)) || i === arg.length - 1) expanded.push(`-${arg[i]}`);
        else {
          expanded.push(`-${arg.slice(i)}`);
          break;
        }
      }
      queue.unshift(...expanded);
    } else if (short) store(longOf(arg[1]!), arg.slice(2));
    else if (arg.length > 2 && arg.startsWith("--")) {
      const eq = arg.indexOf("=", 3);
      const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      store(name, eq !== -1 ? arg.slice(eq + 1) : isString(name) && queue.length ? queue.shift() : undefined);
    } else positionals.push(arg);
  }
  for (const [name, o] of options) if (o.default !== undefined && values[name] === undefined) values[name] = o.default;
  return { values, positionals };
}
