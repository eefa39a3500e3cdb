import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { plugin } from "bun";
import { type Adapter, type AdapterInput, validateAdapter } from "../contract/adapter.ts";
import { withDefaults } from "../contract/adapter-defaults.ts";
import { pluginDirs } from "../os/paths.ts";
import { describeError, pluginValues, registerPluginApi as register } from "./plugin-import.ts";
import { late, vetPlugin } from "./plugin-vet.ts";

export interface RegistryEntry {
  adapter: Adapter;
  /** "builtin", "embedded" (given to createRegistry), or the absolute path of the plugin that provided it. */
  source: string;
  /** Set when this plugin replaced an adapter of the same id. */
  replaced?: string;
}

export interface PluginLoadError {
  path: string;
  error: string;
}

export interface Registry {
  get(id: string): RegistryEntry | undefined;
  list(): RegistryEntry[];
  errors: PluginLoadError[];
}

/** Whether the agent can take a session back with --resume: a run of it is resumable only then. */
export function canResumeWith(registry: Registry, agent: string): boolean {
  return registry.get(agent)?.adapter.capabilities.resume ?? false;
}

/**
 * What a registry is loaded from besides the plugin directories: the adapters
 * bundled with the binary, and the API plugins get (core knows neither; the
 * top-level `src/builtins.ts` wires them in).
 */
export interface RegistrySources {
  builtins: readonly unknown[];
  pluginApi: Record<string, unknown>;
}

let apiRegistered = false;

/** Registers the virtual modules `od/plugin` and `od` in od's thread, once (each plugin thread registers its own). */
function registerPluginApi(pluginApi: Record<string, unknown>): void {
  if (apiRegistered) return;
  apiRegistered = true;
  register(plugin, () => pluginApi);
}

/**
 * The budget for loading every plugin, all at once: one that is not loaded by then (a top-level
 * await or a factory that never settles, a loop that never ends) is reported, not waited for.
 */
export const PLUGIN_LOAD_TIMEOUT_MS = 5000;
/** A plugin entry larger than this is not loaded: an adapter is code, not a bundle of data. */
export const MAX_PLUGIN_BYTES = 5 * 1024 * 1024;

/**
 * Built-ins first, then every plugin directory in order; a plugin with a known id replaces it.
 * Plugins load at once, within one budget; each is vetted in a thread of its own before od's
 * thread imports it (plugin-vet.ts), so none can end or hang od as it loads.
 */
export async function loadRegistry(
  sources: RegistrySources,
  dirs: string[] = pluginDirs(),
  opts: { timeoutMs?: number } = {},
): Promise<Registry> {
  const entries = new Map<string, RegistryEntry>();
  const errors: PluginLoadError[] = [];
  for (const raw of sources.builtins) {
    const entry = builtinEntry(raw);
    entries.set(entry.id, entry);
  }
  registerPluginApi(sources.pluginApi);
  const budget = opts.timeoutMs ?? PLUGIN_LOAD_TIMEOUT_MS;
  const deadline = performance.now() + budget;
  const paths = dirs.flatMap(pluginEntries);
  const loaded = await Promise.all(paths.map((path) => loadPlugin(path, sources.pluginApi, budget, deadline)));
  for (const [i, result] of loaded.entries()) {
    const path = paths[i]!;
    if (typeof result === "string") {
      errors.push({ path, error: result });
      continue;
    }
    for (const adapter of result) {
      const previous = entries.get(adapter.id);
      entries.set(adapter.id, {
        adapter,
        source: path,
        replaced: previous ? `${previous.source === "builtin" ? "built-in" : previous.source} adapter "${adapter.id}"` : undefined,
      });
    }
  }
  return createRegistry([...entries.values()], errors);
}

/** One plugin's adapters, or why it was not loaded: too large, refused by its vetting, or broken in od's thread. */
async function loadPlugin(path: string, pluginApi: Record<string, unknown>, budget: number, deadline: number): Promise<Adapter[] | string> {
  try {
    const size = statSync(path).size;
    if (size > MAX_PLUGIN_BYTES) return `is ${size} bytes, over the ${MAX_PLUGIN_BYTES}-byte limit for a plugin's entry file`;
    const refused = await vetPlugin(path, deadline - performance.now(), budget);
    if (refused) return refused;
    const values = await within(
      pluginValues(path, () => pluginApi),
      deadline - performance.now(),
      budget,
    );
    return values.map(validateAdapter);
  } catch (err) {
    return describeError(err);
  }
}

/** A registry over given entries (tests, embedders); adapters are validated. */
export function createRegistry(entries: Array<RegistryEntry | AdapterInput>, errors: PluginLoadError[] = []): Registry {
  const byId = new Map<string, RegistryEntry>();
  for (const e of entries) {
    const entry = "adapter" in e ? e : { adapter: validateAdapter(e), source: "embedded" };
    byId.set(idOf(entry), entry);
  }
  return {
    get: (id) => byId.get(id),
    // Ids are kebab-case ASCII: code-unit order is their order, and localeCompare's collator costs a start ~2 ms.
    list: () => [...byId.keys()].sort().map((id) => byId.get(id)!),
    errors,
  };
}

/** A built-in's entry: its id at once, its adapter (defaults filled) when first used (`od run --agent x` uses one of 42). */
interface BuiltinEntry extends RegistryEntry {
  readonly id: string;
}

/**
 * Built-ins are not validated at run time: the schema cost `od agents` a third of its start, and the
 * conformance suite holds each one to it (and `withDefaults` to what the schema gives).
 */
function builtinEntry(raw: unknown): BuiltinEntry {
  const id = (raw as { id?: unknown } | null)?.id;
  if (typeof id !== "string") {
    validateAdapter(raw); // throws, saying what the schema misses
    throw new Error("a built-in adapter has no id");
  }
  let adapter: Adapter | undefined;
  return {
    id,
    source: "builtin",
    get adapter() {
      adapter ??= withDefaults(raw as AdapterInput);
      return adapter;
    },
  };
}

/** An entry's id without validating a built-in that is not used yet. */
const idOf = (entry: RegistryEntry): string => ("id" in entry && typeof entry.id === "string" ? entry.id : entry.adapter.id);

/** The plugin entry points in a directory: .ts/.js files, and folders (package.json main, else index). */
export function pluginEntries(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith(".") || name.startsWith("_") || name === "node_modules" || name.endsWith(".d.ts")) continue;
    const path = resolve(dir, name);
    let isDir = false;
    try {
      isDir = statSync(path).isDirectory();
    } catch {
      continue; // a dangling link
    }
    if (!isDir) {
      if (/\.(ts|js|mjs)$/.test(name)) out.push(path);
      continue;
    }
    const entry = folderEntry(path);
    if (entry) out.push(entry);
  }
  return out;
}

function folderEntry(dir: string): string | undefined {
  const pkgPath = join(dir, "package.json");
  if (existsSync(pkgPath)) {
    try {
      const pkg = JSON.parse(readFileSync(pkgPath, "utf8")) as { module?: string; main?: string };
      const main = pkg.module ?? pkg.main;
      if (main) return resolve(dir, main);
    } catch {
      return pkgPath; // importing it reports the JSON error with its path
    }
  }
  return ["index.ts", "index.js", "index.mjs"].map((f) => join(dir, f)).find(existsSync);
}

function within<T>(loading: Promise<T>, ms: number, budget: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(late(budget))), Math.max(0, ms));
  });
  return Promise.race([loading, timeout]).finally(() => clearTimeout(timer));
}
