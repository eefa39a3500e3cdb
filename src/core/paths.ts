import { homedir } from "node:os";
import { dirname, join } from "node:path";

type Env = Record<string, string | undefined>;

/** od's data directory: `$OD_HOME`, else `~/.open-design`. */
export function odHome(env: Env = process.env): string {
  return env.OD_HOME || join(env.HOME || homedir(), ".open-design");
}

/** Where community plugins are looked for, in load order (later ones win on id clashes). */
export function pluginDirs(env: Env = process.env): string[] {
  const dirs = [join(odHome(env), "plugins")];
  if (env.OD_PLUGINS_DIR) dirs.push(env.OD_PLUGINS_DIR);
  // A compiled binary lives in a real folder; under `bun` this is bun's own folder and finds nothing.
  dirs.push(join(dirname(process.execPath), "plugins"));
  return [...new Set(dirs)];
}
