/**
 * Importing a plugin file, shared by od's thread (registry.ts, which validates what it gets) and a
 * plugin's own thread (plugin-worker.ts). Nothing here loads zod: a plugin thread pays for the
 * plugin API only when its plugin asks for it.
 */

type Api = Record<string, unknown>;

/** What a plugin file gives: its default export (an adapter or a list), or what its factory returns given the plugin API. */
export async function pluginValues(path: string, api: () => Api): Promise<unknown[]> {
  const mod = (await import(path)) as { default?: unknown };
  if (mod.default === undefined) throw new Error("no default export (export default defineAdapter({...}) or a factory (od) => adapter)");
  const value = typeof mod.default === "function" ? await (mod.default as (api: unknown) => unknown)(api()) : mod.default;
  return Array.isArray(value) ? value : [value];
}

/** An error as one line for `od plugins`: its message, and where in the file when the parser knows. */
export function describeError(err: unknown): string {
  if (err instanceof AggregateError && err.errors.length) {
    return err.errors.map((e) => describeOne(e)).join("; ");
  }
  return describeOne(err);
}

function describeOne(err: unknown): string {
  const e = err as { message?: string; position?: { line?: number; column?: number } };
  const where = e?.position?.line ? ` (line ${e.position.line}:${e.position.column ?? 0})` : "";
  return `${e?.message ?? String(err)}${where}`;
}

/**
 * The names a plugin imports the API by: `od/plugin`, the one to use (the package's subpath, so an
 * editor finds its types), and `od`, kept for plugins written before it.
 */
const PLUGIN_API_MODULES = ["od/plugin", "od"] as const;

/**
 * Registers the virtual modules `od/plugin` and `od` in this thread, so plugins can
 * `import { defineAdapter, z } from "od/plugin"`, even in the compiled binary. The API is asked
 * for when a plugin first imports either.
 */
export function registerPluginApi(plugin: typeof Bun.plugin, api: () => Api): void {
  plugin({
    name: "od-plugin-api",
    setup(build) {
      for (const name of PLUGIN_API_MODULES)
        build.module(name, () => {
          const exports = api();
          return { exports: { ...exports, default: exports }, loader: "object" };
        });
    },
  });
}
