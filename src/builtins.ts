/**
 * The one module that wires what the binary bundles into core: the built-in
 * adapters (plugins/), the bundled skills (skills/) and the public plugin API.
 * Core takes these as parameters and imports none of them, so core depends on
 * nothing that depends on core. Surfaces (cli/, server/, the library) load
 * their registry and skills from here.
 */
import { builtinAdapters } from "../plugins/index.gen.ts";
import { bundledSkillFiles } from "../skills/index.gen.ts";
import { loadRegistry as loadRegistryFrom, type Registry } from "./core/agents/registry.ts";
import type { Env } from "./core/contract/request.ts";
import { loadSkills as loadSkillsFrom, type SkillCatalog } from "./core/skills/catalog.ts";
import * as pluginApi from "./plugin.ts";

/** Built-ins first, then every plugin directory in order (default: `pluginDirs()`); a plugin with a known id replaces it. */
export function loadRegistry(dirs?: string[], opts: { timeoutMs?: number } = {}): Promise<Registry> {
  return loadRegistryFrom({ builtins: builtinAdapters, pluginApi }, dirs, opts);
}

/** The bundled skills, then `~/.open-design/skills`, then `extraDirs`. */
export function loadSkills(extraDirs: string[] = [], env: Env = process.env): Promise<SkillCatalog> {
  return loadSkillsFrom(extraDirs, env, bundledSkillFiles);
}
