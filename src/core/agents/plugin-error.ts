import type { Adapter } from "../contract/adapter.ts";
import { OdError } from "../contract/errors.ts";

/** A plugin's own code failed during a run: the plugin is named, and so is what it did. */
export function pluginError(adapter: Pick<Adapter, "id" | "name">, why: string, path?: string): OdError {
  return new OdError(
    "PLUGIN_ERROR",
    `The plugin adapter "${adapter.id}" (${adapter.name}${path ? `, ${path}` : ""}) failed: ${why}`,
    "This is a bug in the plugin, not in od: report it to the plugin's author. `od plugins` shows where each adapter comes from; OD_NO_PLUGINS=1 runs the built-ins alone.",
  );
}

/**
 * Calls one of a plugin's functions: what it throws is the plugin's PLUGIN_ERROR, not a bug in od.
 * An OdError it throws on purpose (a refusal with its own code) passes as it is; a built-in's
 * throw stays od's own (`trusted`).
 */
export function callPlugin<T>(adapter: Pick<Adapter, "id" | "name">, trusted: boolean, what: string, f: () => T): T {
  if (trusted) return f();
  try {
    return f();
  } catch (err) {
    if (err instanceof OdError) throw err;
    throw pluginError(adapter, `${what} threw: ${err instanceof Error ? err.message : String(err)}`);
  }
}
